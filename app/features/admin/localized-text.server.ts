import { type FieldTarget } from '#app/utils/provider-reply.server.ts'
import { CONTENT_LANGUAGES, MISSING_LANGUAGE_KEY } from '#app/forms/localized-text.ts'

/**
 * Where the provider's errors on localized texts go (replyToFailure's `fields`): `title.en` on the
 * form's `title.en`, the provider's "missing" message in the user's language.
 */
export function localizedFieldTargets(fields: readonly string[]): Record<string, FieldTarget> {
  return Object.fromEntries(
    fields.flatMap((field) =>
      CONTENT_LANGUAGES.map((language) => [
        `${field}.${language}`,
        { field: `${field}.${language}`, messages: (provided: string[]) => provided.map((message) => (message.startsWith('This language is missing') ? MISSING_LANGUAGE_KEY : message)) },
      ]),
    ),
  )
}
