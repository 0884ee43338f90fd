import { z } from 'zod'
import { recordHealthViews } from '#server/audit/health-views.ts'
import { authenticate, authenticateWithRole, type Caller, roleOf } from '#server/auth/authenticate.ts'
import { saoPauloDate } from '#server/dates.ts'
import { idParam, type Api } from '#server/http/api.ts'
import { notFound } from '#server/http/errors.ts'
import { idField, validate } from '#server/http/fields.ts'
import { paginate } from '#server/http/pagination.ts'
import { currentProgramOf, goalsOf } from '#server/questionnaire/program-repository.ts'
import { serializeProgramSummary } from '#server/questionnaire/serializers.ts'
import type { Services } from '#server/services.ts'
import { countPatientsOf, findUserById, groupNamesOf, isCareLinked, patientsOf, usersInGroup } from '#server/users/repository.ts'
import { serializePatient, serializeProfessional, serializeProfile } from '#server/users/serializers.ts'

// The query and form shapes the handlers check, built once (a zod schema compiles its parser on first use).
const patientQuery = z.object({ patient: idField() })

/** Professionals and their patients (docs/product.md §6: professionals list their patients). */
export function registerProfessionalRoutes(api: Api, services: Services): void {
  const { db, config, clock } = services
  const photoBase = config.providerPublicUrl

  /**
   * A patient the caller may read (admins read any): 404 when the id names no patient and, alike,
   * for a professional they are not linked to, so nobody learns which ids are patients.
   */
  const readablePatient = async (caller: Caller, patientId: number) => {
    const patient = await findUserById(db, patientId)
    const groups = patient ? await groupNamesOf(db, patient.id) : []
    if (!patient || roleOf(groups) !== 'paciente') throw notFound()
    if (roleOf(caller.groups) === 'profissional' && !(await isCareLinked(db, caller.user.id, patient.id))) throw notFound()
    return { patient, groups }
  }

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
      // Every booking can add a patient: a DRF page (20, at most 100), read with LIMIT/OFFSET.
      const page = paginate(c, await countPatientsOf(db, user.id))
      const patients = await patientsOf(db, user.id, page)
      return c.json(page.envelope(patients.map((patient) => serializePatient(patient.user, patient.linkedAt, photoBase))))
    },
  })

  api.endpoint('/users/patients/', {
    GET: async (c) => {
      const caller = await authenticateWithRole(c, services, 'profissional', 'admin')
      const { patient: patientId } = validate(patientQuery, { patient: c.req.query('patient') })
      const { patient, groups } = await readablePatient(caller, patientId)
      return c.json(serializeProfile(patient, groups, photoBase))
    },
  })

  // A patient's current program without its weekly goals (the focus pillars, the week, the
  // progress), for their professionals and admins; 404 when they have none yet.
  api.endpoint('/users/patients/:id{[0-9]+}/program/', {
    GET: async (c) => {
      const caller = await authenticateWithRole(c, services, 'profissional', 'admin')
      const { patient } = await readablePatient(caller, idParam(c, 'id'))
      const program = await currentProgramOf(db, patient.id)
      if (!program) throw notFound()
      // Kept in the audit log: a staff member read this patient's program (decision 0059).
      await recordHealthViews(db, caller, [{ targetType: 'program', targetId: program.id, patientId: patient.id }], clock())
      return c.json(serializeProgramSummary(program, await goalsOf(db, program.id), saoPauloDate(clock())))
    },
  })
}
