import type { Caller } from '#server/auth/authenticate.ts'
import type { Writer } from '#server/db/client.ts'
import { actorOf } from '#server/audit/entries.ts'
import { recordAudit } from '#server/audit/repository.ts'

/** What of a patient's health data a staff member read: an assessment result, a program, an appointment's private notes. */
type HealthView = { targetType: 'questionnaire_result' | 'program' | 'appointment_notes'; targetId: number; patientId: number }

/**
 * Records a staff member's reads of patients' health data (decision 0059): one `health.view` entry
 * per thing read, the patient as its subject, all in one insert per request. A person reading their
 * own data records nothing.
 */
export async function recordHealthViews(db: Writer, caller: Caller, views: HealthView[], now: number): Promise<void> {
  const others = views.filter((view) => view.patientId !== caller.user.id)
  await recordAudit(
    db,
    ...others.map((view) => ({ ...actorOf(caller), action: 'health.view' as const, targetType: view.targetType, targetId: view.targetId, subjectUserId: view.patientId, at: now })),
  )
}
