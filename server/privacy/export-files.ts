import type { Options as CsvOptions } from 'csv-stringify'
import type { ConsentRecordView } from '#server/privacy/consents.ts'

/**
 * The data export's files (LGPD art. 18 II and V; decision 0060), pure: their names in the ZIP, the
 * columns of each CSV, how a stored row becomes a CSV row, and the LEIA-ME that explains them.
 * privacy/export.ts reads the rows in batches and streams them through these.
 */

export type ExportLanguage = 'pt' | 'en' | 'es'
export const EXPORT_LANGUAGES: readonly ExportLanguage[] = ['pt', 'en', 'es']

/** The ZIP's name: the day it was made, in the user's time zone. */
export const exportFileName = (localDate: string) => `innera-dados-${localDate}.zip`

/**
 * Every CSV: a BOM first (spreadsheets then read UTF-8), a header row, and any cell that a
 * spreadsheet would run as a formula (starting with = + - @, a tab or a carriage return) prefixed
 * with "'" by csv-stringify's escape_formulas (numbers stay numbers, a negative one included).
 */
export const CSV_OPTIONS = { bom: true, header: true, escape_formulas: true, record_delimiter: 'unix' } as const satisfies CsvOptions

type Column<Row> = { key: keyof Row & string; header?: string }
const columns = <Row>(...keys: (keyof Row & string)[]): Column<Row>[] => keys.map((key) => ({ key }))

const iso = (date: Date | null | undefined) => (date ? date.toISOString() : '')
const flag = (value: boolean | null | undefined) => (value === null || value === undefined ? '' : value ? 'true' : 'false')

// consents.csv
type ConsentCsvRow = {
  recorded_at: string
  document: string
  version: string
  granted: string
  source: string
  cookie_preferences: string
  cookie_analytics: string
  cookie_marketing: string
}
export const CONSENT_COLUMNS = columns<ConsentCsvRow>('recorded_at', 'document', 'version', 'granted', 'source', 'cookie_preferences', 'cookie_analytics', 'cookie_marketing')
export const consentCsvRow = (record: ConsentRecordView): ConsentCsvRow => ({
  recorded_at: iso(record.recordedAt),
  document: record.document,
  version: record.version,
  granted: flag(record.granted),
  source: record.source,
  cookie_preferences: flag(record.categories?.preferences),
  cookie_analytics: flag(record.categories?.analytics),
  cookie_marketing: flag(record.categories?.marketing),
})

// assessments.json and assessment_answers.csv
type StoredResult = { id: number; version: string; submittedAt: Date; answers: Record<string, number>; scores: Record<string, number>; focusPillars: string[] }
export const assessmentJson = (result: StoredResult) => ({
  id: result.id,
  version: result.version,
  submitted_at: iso(result.submittedAt),
  scores: result.scores,
  focus_pillars: result.focusPillars,
})
type AnswerCsvRow = { result_id: number; submitted_at: string; version: string; question: string; answer: number }
export const ANSWER_COLUMNS = columns<AnswerCsvRow>('result_id', 'submitted_at', 'version', 'question', 'answer')
/** One row per answered question, in the question codes' order. */
export const answerCsvRows = (result: StoredResult): AnswerCsvRow[] =>
  Object.keys(result.answers)
    .sort()
    .map((question) => ({ result_id: result.id, submitted_at: iso(result.submittedAt), version: result.version, question, answer: result.answers[question]! }))

// program.json
type StoredProgram = { id: number; createdAt: Date; source: string; startsOn: string; weeks: number; focusPillars: string[]; pillarsOrder: string[] }
type StoredGoal = { programId: number; week: number; position: number; pillarSlug: string; level: number; focus: boolean; text: unknown; done: boolean; doneAt: Date | null }
export const programJson = (program: StoredProgram, goals: readonly StoredGoal[]) => ({
  id: program.id,
  created_at: iso(program.createdAt),
  source: program.source,
  starts_on: program.startsOn,
  weeks: program.weeks,
  focus_pillars: program.focusPillars,
  pillars_order: program.pillarsOrder,
  goals: goals
    .filter((goal) => goal.programId === program.id)
    .map((goal) => ({ week: goal.week, pillar: goal.pillarSlug, level: goal.level, focus: goal.focus, text: goal.text, done: goal.done, done_at: goal.doneAt ? iso(goal.doneAt) : null })),
})

// appointments.csv
export type StoredAppointment = {
  id: number
  patientId: number
  status: string
  startTime: Date
  endTime: Date
  notes: string
  sharedNotes: string
  privateNotes: string
  priceCents: number | null
  paymentReference: string | null
  createdAt: Date
  cancelledAt: Date | null
  cancelledBy: string | null
  refund: string | null
  otherFirstName: string
  otherLastName: string
}
type AppointmentCsvRow = {
  id: number
  my_role: 'patient' | 'professional'
  with: string
  status: string
  start_time: string
  end_time: string
  my_notes: string
  shared_notes: string
  private_notes: string
  price_cents: number | ''
  payment_reference: string
  created_at: string
  cancelled_at: string
  cancelled_by: string
  refund: string
}
export const APPOINTMENT_COLUMNS = columns<AppointmentCsvRow>(
  'id',
  'my_role',
  'with',
  'status',
  'start_time',
  'end_time',
  'my_notes',
  'shared_notes',
  'private_notes',
  'price_cents',
  'payment_reference',
  'created_at',
  'cancelled_at',
  'cancelled_by',
  'refund',
)
/**
 * An appointment as the user is part of it: a patient's own notes and what the professional shared;
 * the professional's private notes only in a professional's export (a patient never reads them,
 * docs/product.md §3).
 */
export function appointmentCsvRow(row: StoredAppointment, userId: number): AppointmentCsvRow {
  const asPatient = row.patientId === userId
  return {
    id: row.id,
    my_role: asPatient ? 'patient' : 'professional',
    with: `${row.otherFirstName} ${row.otherLastName}`.trim(),
    status: row.status,
    start_time: iso(row.startTime),
    end_time: iso(row.endTime),
    my_notes: asPatient ? row.notes : '',
    shared_notes: row.sharedNotes,
    private_notes: asPatient ? '' : row.privateNotes,
    price_cents: row.priceCents ?? '',
    payment_reference: row.paymentReference ?? '',
    created_at: iso(row.createdAt),
    cancelled_at: iso(row.cancelledAt),
    cancelled_by: row.cancelledBy ?? '',
    refund: row.refund ?? '',
  }
}

// habits.csv and habit_entries.csv
type StoredHabit = {
  id: number
  name: string
  pillarSlug: string
  frequency: unknown
  target: number | null
  unit: string
  reminderTime: string | null
  createdOn: string
  archivedAt: Date | null
}
type HabitCsvRow = { id: number; name: string; pillar: string; frequency: string; target: number | ''; unit: string; reminder_time: string; created_on: string; archived_at: string }
export const HABIT_COLUMNS = columns<HabitCsvRow>('id', 'name', 'pillar', 'frequency', 'target', 'unit', 'reminder_time', 'created_on', 'archived_at')
export const habitCsvRow = (habit: StoredHabit): HabitCsvRow => ({
  id: habit.id,
  name: habit.name,
  pillar: habit.pillarSlug,
  frequency: JSON.stringify(habit.frequency),
  target: habit.target ?? '',
  unit: habit.unit,
  reminder_time: habit.reminderTime ?? '',
  created_on: habit.createdOn,
  archived_at: iso(habit.archivedAt),
})
type StoredHabitEntry = { habitId: number; date: string; status: string; amount: number | null; updatedAt: Date }
type HabitEntryCsvRow = { habit_id: number; date: string; status: string; amount: number | ''; updated_at: string }
export const HABIT_ENTRY_COLUMNS = columns<HabitEntryCsvRow>('habit_id', 'date', 'status', 'amount', 'updated_at')
export const habitEntryCsvRow = (entry: StoredHabitEntry): HabitEntryCsvRow => ({
  habit_id: entry.habitId,
  date: entry.date,
  status: entry.status,
  amount: entry.amount ?? '',
  updated_at: iso(entry.updatedAt),
})

// purchases.csv and subscriptions.csv
type StoredPurchase = {
  id: number
  status: string
  method: string
  totalCents: number
  refundedCents: number
  currency: string
  subscriptionId: number | null
  createdAt: Date
  paidAt: Date | null
  items: { name: { pt: string }; quantity: number; lineCents: number }[]
}
type PurchaseCsvRow = {
  id: number
  status: string
  method: string
  total_cents: number
  refunded_cents: number
  currency: string
  items: string
  subscription_id: number | ''
  created_at: string
  paid_at: string
}
export const PURCHASE_COLUMNS = columns<PurchaseCsvRow>('id', 'status', 'method', 'total_cents', 'refunded_cents', 'currency', 'items', 'subscription_id', 'created_at', 'paid_at')
export const purchaseCsvRow = (purchase: StoredPurchase): PurchaseCsvRow => ({
  id: purchase.id,
  status: purchase.status,
  method: purchase.method,
  total_cents: purchase.totalCents,
  refunded_cents: purchase.refundedCents,
  currency: purchase.currency.toUpperCase(),
  items: purchase.items.map((item) => `${item.quantity} x ${item.name.pt} (${item.lineCents})`).join('; '),
  subscription_id: purchase.subscriptionId ?? '',
  created_at: iso(purchase.createdAt),
  paid_at: iso(purchase.paidAt),
})
type StoredSubscription = { id: number; planSlug: string; method: string; status: string; priceCents: number; currentPeriodStart: Date | null; currentPeriodEnd: Date | null; cancelAtPeriodEnd: boolean; createdAt: Date; endedAt: Date | null; endedReason: string | null }
type SubscriptionCsvRow = { id: number; plan: string; method: string; status: string; price_cents: number; period_start: string; period_end: string; cancel_at_period_end: string; created_at: string; ended_at: string; ended_reason: string }
export const SUBSCRIPTION_COLUMNS = columns<SubscriptionCsvRow>('id', 'plan', 'method', 'status', 'price_cents', 'period_start', 'period_end', 'cancel_at_period_end', 'created_at', 'ended_at', 'ended_reason')
export const subscriptionCsvRow = (row: StoredSubscription): SubscriptionCsvRow => ({
  id: row.id,
  plan: row.planSlug,
  method: row.method,
  status: row.status,
  price_cents: row.priceCents,
  period_start: iso(row.currentPeriodStart),
  period_end: iso(row.currentPeriodEnd),
  cancel_at_period_end: flag(row.cancelAtPeriodEnd),
  created_at: iso(row.createdAt),
  ended_at: iso(row.endedAt),
  ended_reason: row.endedReason ?? '',
})

// course_progress.csv
type StoredProgress = { courseSlug: string; lessonSlug: string; lessonNumber: number; positionMs: number; watchedMs: number; completedAt: Date | null; updatedAt: Date }
type ProgressCsvRow = { course: string; lesson: string; lesson_number: number; position_seconds: number; watched_seconds: number; completed_at: string; updated_at: string }
export const PROGRESS_COLUMNS = columns<ProgressCsvRow>('course', 'lesson', 'lesson_number', 'position_seconds', 'watched_seconds', 'completed_at', 'updated_at')
export const progressCsvRow = (row: StoredProgress): ProgressCsvRow => ({
  course: row.courseSlug,
  lesson: row.lessonSlug,
  lesson_number: row.lessonNumber,
  position_seconds: row.positionMs / 1000,
  watched_seconds: row.watchedMs / 1000,
  completed_at: iso(row.completedAt),
  updated_at: iso(row.updatedAt),
})

// shares.csv
export type StoredShare = { kind: 'result' | 'care_link'; resultId: number | null; professionalId: number; firstName: string; lastName: string; since: Date }
type ShareCsvRow = { kind: string; result_id: number | ''; professional_id: number; professional: string; since: string }
export const SHARE_COLUMNS = columns<ShareCsvRow>('kind', 'result_id', 'professional_id', 'professional', 'since')
export const shareCsvRow = (share: StoredShare): ShareCsvRow => ({
  kind: share.kind,
  result_id: share.resultId ?? '',
  professional_id: share.professionalId,
  professional: `${share.firstName} ${share.lastName}`.trim(),
  since: iso(share.since),
})

/** A message of one of the user's conversations (issue 44), with the other person's name and where its files are in the ZIP. */
export type StoredMessage = { id: number; conversationId: number; senderId: number | null; body: string; createdAt: Date; deletedAt: Date | null; otherFirstName: string; otherLastName: string; attachments?: string[] }
export type MessageCsvRow = { id: number; conversation_id: number; with: string; from: 'me' | 'them'; sent_at: string; text: string; deleted_at: string; attachments: string }
export const MESSAGE_COLUMNS = columns<MessageCsvRow>('id', 'conversation_id', 'with', 'from', 'sent_at', 'text', 'deleted_at', 'attachments')
/** The folder of the ZIP that holds the files sent in the user's conversations (decision 0086). */
export const ATTACHMENTS_FOLDER = 'anexos/'
export const messageCsvRow = (message: StoredMessage, userId: number): MessageCsvRow => ({
  id: message.id,
  conversation_id: message.conversationId,
  with: `${message.otherFirstName} ${message.otherLastName}`.trim(),
  from: message.senderId === userId ? 'me' : 'them',
  sent_at: iso(message.createdAt),
  text: message.body,
  deleted_at: message.deletedAt ? iso(message.deletedAt) : '',
  // One path a line: a file's name may hold any other separator.
  attachments: (message.attachments ?? []).join('\n'),
})

/** The files, in the ZIP's order. */
export const EXPORT_FILES = [
  'LEIA-ME.txt',
  'profile.json',
  'consents.csv',
  'assessments.json',
  'assessment_answers.csv',
  'program.json',
  'appointments.csv',
  'habits.csv',
  'habit_entries.csv',
  'purchases.csv',
  'subscriptions.csv',
  'course_progress.csv',
  'shares.csv',
  'messages.csv',
] as const
export type ExportFile = (typeof EXPORT_FILES)[number]

const FILE_TEXTS: Record<ExportLanguage, Record<Exclude<ExportFile, 'LEIA-ME.txt'>, string>> = {
  pt: {
    'profile.json': 'seu perfil e sua conta (e, para profissionais, o perfil profissional)',
    'consents.csv': 'quando você aceitou ou retirou cada termo, política e opção de marketing',
    'assessments.json': 'suas avaliações: pontuação por pilar e pilares de foco',
    'assessment_answers.csv': 'cada resposta de cada avaliação',
    'program.json': 'seus programas com as metas semanais',
    'appointments.csv': 'suas consultas',
    'habits.csv': 'seus hábitos',
    'habit_entries.csv': 'cada registro diário dos hábitos',
    'purchases.csv': 'suas compras e reembolsos',
    'subscriptions.csv': 'suas assinaturas',
    'course_progress.csv': 'seu progresso nas aulas dos cursos',
    'shares.csv': 'os profissionais que veem seus resultados, e desde quando',
    'messages.csv': 'as mensagens das suas conversas com pacientes ou profissionais',
  },
  en: {
    'profile.json': 'your profile and account (and, for professionals, the professional profile)',
    'consents.csv': 'when you accepted or withdrew each term, policy and marketing choice',
    'assessments.json': 'your assessments: scores per pillar and focus pillars',
    'assessment_answers.csv': 'every answer of every assessment',
    'program.json': 'your programs with their weekly goals',
    'appointments.csv': 'your consultations',
    'habits.csv': 'your habits',
    'habit_entries.csv': "every day's entry of your habits",
    'purchases.csv': 'your purchases and refunds',
    'subscriptions.csv': 'your subscriptions',
    'course_progress.csv': "your progress in the courses' lessons",
    'shares.csv': 'the professionals who see your results, and since when',
    'messages.csv': 'the messages of your conversations with patients or professionals',
  },
  es: {
    'profile.json': 'tu perfil y tu cuenta (y, para profesionales, el perfil profesional)',
    'consents.csv': 'cuándo aceptaste o retiraste cada término, política y opción de marketing',
    'assessments.json': 'tus evaluaciones: puntuación por pilar y pilares de foco',
    'assessment_answers.csv': 'cada respuesta de cada evaluación',
    'program.json': 'tus programas con sus metas semanales',
    'appointments.csv': 'tus consultas',
    'habits.csv': 'tus hábitos',
    'habit_entries.csv': 'cada registro diario de tus hábitos',
    'purchases.csv': 'tus compras y reembolsos',
    'subscriptions.csv': 'tus suscripciones',
    'course_progress.csv': 'tu progreso en las clases de los cursos',
    'shares.csv': 'los profesionales que ven tus resultados, y desde cuándo',
    'messages.csv': 'los mensajes de tus conversaciones con pacientes o profesionales',
  },
}

const README_HEAD: Record<ExportLanguage, (generatedAt: string) => string> = {
  pt: (at) =>
    `Seus dados na Innera, exportados em ${at} (UTC).\n\nArquivos CSV abrem em planilhas (UTF-8, vírgula como separador); arquivos JSON, em qualquer editor de texto. Datas e horários estão em UTC (ISO 8601); valores em centavos de real.\n\n`,
  en: (at) =>
    `Your data at Innera, exported on ${at} (UTC).\n\nCSV files open in spreadsheets (UTF-8, comma separated); JSON files in any text editor. Dates and times are in UTC (ISO 8601); amounts in cents of Brazilian real.\n\n`,
  es: (at) =>
    `Tus datos en Innera, exportados el ${at} (UTC).\n\nLos archivos CSV se abren en hojas de cálculo (UTF-8, separados por comas); los JSON, en cualquier editor de texto. Fechas y horas en UTC (ISO 8601); importes en centavos de real.\n\n`,
}

/** LEIA-ME.txt: what each file holds, in the language asked for. */
const ATTACHMENTS_TEXT: Record<ExportLanguage, string> = {
  pt: 'os arquivos (fotos e PDFs) enviados nas suas conversas, como estão guardados; a coluna attachments de messages.csv diz de qual mensagem é cada um',
  en: 'the files (photos and PDFs) sent in your conversations, as stored; the attachments column of messages.csv says which message each belongs to',
  es: 'los archivos (fotos y PDF) enviados en tus conversaciones, tal como se guardan; la columna attachments de messages.csv dice de qué mensaje es cada uno',
}

export function readme(language: ExportLanguage, generatedAt: number): string {
  const texts = FILE_TEXTS[language]
  const lines = EXPORT_FILES.filter((file): file is Exclude<ExportFile, 'LEIA-ME.txt'> => file !== 'LEIA-ME.txt').map((file) => `- ${file}: ${texts[file]}`)
  lines.push(`- ${ATTACHMENTS_FOLDER}: ${ATTACHMENTS_TEXT[language]}`)
  return `${README_HEAD[language](new Date(generatedAt).toISOString())}${lines.join('\n')}\n`
}

/** One value of a JSON array file, written as the array streams: the opening, a separator, then the closing. */
export function jsonArrayChunk(value: unknown, index: number): string {
  return `${index === 0 ? '[\n' : ',\n'}${JSON.stringify(value, null, 2)}`
}
export const jsonArrayEnd = (count: number) => (count === 0 ? '[]\n' : '\n]\n')
