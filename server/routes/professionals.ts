import { z } from 'zod'
import { authenticate, authenticateWithRole, roleOf } from '#server/auth/authenticate.ts'
import type { Api } from '#server/http/api.ts'
import { notFound, permissionDenied } from '#server/http/errors.ts'
import { idField, validate } from '#server/http/fields.ts'
import type { Services } from '#server/services.ts'
import { findUserById, groupNamesOf, isCareLinked, patientsOf, usersInGroup } from '#server/users/repository.ts'
import { serializePatient, serializeProfessional, serializeProfile } from '#server/users/serializers.ts'

/** Professionals and their patients (SPEC §6: professionals list their patients). */
export function registerProfessionalRoutes(api: Api, services: Services): void {
  const { db, config } = services
  const photoBase = config.providerPublicUrl

  const listProfessionals = async () => (await usersInGroup(db, 'profissional')).map((user) => serializeProfessional(user, photoBase))

  api.endpoint('/users/professionals/', {
    GET: async (c) => {
      await authenticate(c, services)
      return c.json(await listProfessionals())
    },
  })

  api.endpoint('/groups/profissional/users/', {
    GET: async (c) => {
      await authenticate(c, services)
      return c.json(await listProfessionals())
    },
  })

  api.endpoint('/users/professionals/patients/', {
    GET: async (c) => {
      const { user } = await authenticateWithRole(c, services, 'profissional')
      const patients = await patientsOf(db, user.id)
      return c.json(patients.map((patient) => serializePatient(patient.user, patient.linkedAt, photoBase)))
    },
  })

  api.endpoint('/users/patients/', {
    GET: async (c) => {
      const caller = await authenticateWithRole(c, services, 'profissional', 'admin')
      const { patient: patientId } = validate(z.object({ patient: idField() }), { patient: c.req.query('patient') })
      const patient = await findUserById(db, patientId)
      const groups = patient ? await groupNamesOf(db, patient.id) : []
      if (!patient || roleOf(groups) !== 'paciente') throw notFound()
      if (roleOf(caller.groups) === 'profissional' && !(await isCareLinked(db, caller.user.id, patient.id))) throw permissionDenied()
      return c.json(serializeProfile(patient, groups, photoBase))
    },
  })
}
