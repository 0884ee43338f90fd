import { z } from 'zod'
import { CONTENT_LANGUAGES, MISSING_LANGUAGE_KEY, MISSING_LANGUAGES_KEY, contentIntentField, localizedDraftField, type LocalizedDraft } from './localized-text.ts'

/**
 * The question bank's version editor (decision 0068): the version's texts and minutes, and each
 * question's code, pillar, text, five option labels and reverse flag. A draft may leave languages
 * empty; publishing needs every language of every text (each missing one on its own input,
 * `questions[3].text.es`). The provider checks all of it again.
 */

export const MAX_QUESTIONS = 120
export const OPTION_COUNT = 5
const CODE = /^[a-z][a-z0-9_]*$/
const VERSION = /^[0-9a-z]+(?:[.-][0-9a-z]+)*$/

const emptyText = (): LocalizedDraft => ({ pt: '', en: '', es: '' })
/** A new question's starting labels: the frequency scale most questions use (edited as needed). */
const FREQUENCY: LocalizedDraft[] = [
  { pt: 'Nunca', en: 'Never', es: 'Nunca' },
  { pt: 'Raramente', en: 'Rarely', es: 'Rara vez' },
  { pt: 'Às vezes', en: 'Sometimes', es: 'A veces' },
  { pt: 'Frequentemente', en: 'Often', es: 'A menudo' },
  { pt: 'Sempre', en: 'Always', es: 'Siempre' },
]

/** A new question's starting values (the "add a question" button): its text to write, the frequency scale's labels. */
export const newQuestion = (code: string, pillar: string) => ({ code, pillar, text: emptyText(), options: FREQUENCY.map((label) => ({ ...label })), reverse: false })

const question = z.object({
  code: z
    .string({ error: 'admin-questionnaire:errors.code' })
    .trim()
    .max(64, { error: 'admin-questionnaire:errors.code' })
    .regex(CODE, { error: 'admin-questionnaire:errors.code' }),
  pillar: z.string({ error: 'admin-questionnaire:errors.pillar' }).max(50),
  text: localizedDraftField(500),
  // An option left all empty is absent from the form's data: the list is made whole again.
  options: z
    .array(localizedDraftField(100))
    .max(OPTION_COUNT)
    .default([])
    .transform((options) => Array.from({ length: OPTION_COUNT }, (_, index) => options[index] ?? emptyText())),
  reverse: z.boolean().default(false),
})

type Value = { intent: 'save' | 'publish'; title: LocalizedDraft; description: LocalizedDraft; questions: { code: string; text: LocalizedDraft; options: LocalizedDraft[] }[] }

/** Each text of the form by its path: the version's, every question's and every option label. */
function textPaths(value: Pick<Value, 'title' | 'description' | 'questions'>): [(string | number)[], LocalizedDraft][] {
  return [
    [['title'], value.title],
    [['description'], value.description],
    ...value.questions.flatMap((item, index) => [
      [['questions', index, 'text'], item.text] as [(string | number)[], LocalizedDraft],
      ...item.options.map((option, value) => [['questions', index, 'options', value], option] as [(string | number)[], LocalizedDraft]),
    ]),
  ]
}

/** The names of every text's inputs' parent (`questions[3].text`), for the provider's errors. */
export const textNames = (questionCount: number) => [
  'title',
  'description',
  ...Array.from({ length: questionCount }, (_, index) => [`questions[${index}].text`, ...Array.from({ length: OPTION_COUNT }, (_, value) => `questions[${index}].options[${value}]`)]).flat(),
]

function check(value: Value, context: z.RefinementCtx) {
  const seen = new Set<string>()
  value.questions.forEach((item, index) => {
    if (seen.has(item.code)) context.addIssue({ code: 'custom', path: ['questions', index, 'code'], message: 'admin-questionnaire:errors.codeRepeated' })
    seen.add(item.code)
  })
  if (value.intent !== 'publish') return
  let missing = false
  for (const [path, text] of textPaths(value)) {
    for (const language of CONTENT_LANGUAGES) {
      if (text[language]?.trim()) continue
      missing = true
      context.addIssue({ code: 'custom', path: [...path, language], message: MISSING_LANGUAGE_KEY })
    }
  }
  if (missing) context.addIssue({ code: 'custom', path: [], message: MISSING_LANGUAGES_KEY })
}

export const questionnaireVersionSchema = z
  .object({
    intent: contentIntentField(),
    title: localizedDraftField(150),
    description: localizedDraftField(1000),
    estimated_minutes: z.number({ error: 'admin-questionnaire:errors.minutes' }).int({ error: 'admin-questionnaire:errors.minutes' }).min(1, { error: 'admin-questionnaire:errors.minutes' }).max(120, { error: 'admin-questionnaire:errors.minutes' }),
    questions: z.array(question).max(MAX_QUESTIONS, { error: 'admin-questionnaire:errors.tooManyQuestions' }).default([]),
  })
  .superRefine(check)

/** "Nova versão": the new version's string. */
export const newQuestionnaireVersionSchema = z.object({
  version: z
    .string({ error: 'admin-questionnaire:errors.version' })
    .trim()
    .max(20, { error: 'admin-questionnaire:errors.version' })
    .regex(VERSION, { error: 'admin-questionnaire:errors.version' }),
})
