/** Courses and lessons as pages word them (decision 0057). Pure; no imports: the player's code uses it too. */

/** A length or a moment of a video as a clock: "0:42", "12:05", "1:02:09". */
export function clockTime(totalSeconds: number): string {
  const whole = Math.max(0, Math.floor(totalSeconds))
  const hours = Math.floor(whole / 3600)
  const minutes = Math.floor((whole % 3600) / 60)
  const seconds = String(whole % 60).padStart(2, '0')
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`
}

/** Less than this left of a lesson, and it opens from the start again (decision 0057). */
const RESUME_MARGIN_SECONDS = 5

/**
 * Where a lesson's video opens: its resume point as a media fragment (`#t=42`), or nothing when it
 * was never played, is done, or has less than RESUME_MARGIN_SECONDS left.
 */
export function resumeFragment(progress: { position_seconds: number; completed: boolean }, durationSeconds: number): string {
  const position = Math.floor(progress.position_seconds)
  if (progress.completed || position <= 0 || durationSeconds - position < RESUME_MARGIN_SECONDS) return ''
  return `#t=${position}`
}

type CourseStage = 'new' | 'started' | 'done'

/** Not started, under way, or every lesson done ("Começar", "Continuar", "Curso concluído"). */
export function courseStage(progress: { started: boolean; completed_lessons: number; total_lessons: number; next_lesson_id: number | null }): CourseStage {
  if (progress.total_lessons > 0 && progress.completed_lessons >= progress.total_lessons) return 'done'
  return progress.started ? 'started' : 'new'
}
