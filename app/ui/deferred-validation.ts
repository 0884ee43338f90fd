import { type Submission, parse } from '@conform-to/react'
import { useCallback, useRef, useState } from 'react'
import { type z } from 'zod'
import type { FormName, FormSchemas } from '#app/forms/form-validation.ts'

/** A form's field values as typed, and as validated: useForm<FormInput<'login'>, FormOutput<'login'>>. */
export type FormInput<Name extends FormName> = z.input<FormSchemas[Name]>
export type FormOutput<Name extends FormName> = z.output<FormSchemas[Name]>

/** What conform's onValidate returns for the form: the parsed submission. */
type SubmissionOf<Name extends FormName> = Submission<FormInput<Name>, string[], FormOutput<Name>>
type Validate<Name extends FormName> = (formData: FormData) => SubmissionOf<Name>

/**
 * A form's client-side validation, loaded when the user first focuses or touches the form: zod and
 * the schemas stay out of every page's first load (see bench/js-size.mjs). Until the module has
 * arrived, the client accepts what was typed and the server validates the submission, as it always
 * does; once it has, conform validates on blur and on input as usual.
 *
 * Pass `onValidate` to useForm and spread `formProps` on the <Form>.
 */
export function useDeferredValidation<Name extends FormName>(form: Name) {
  const [validate, setValidate] = useState<Validate<Name> | null>(null)
  const requested = useRef(false)
  const request = useCallback(() => {
    if (requested.current) return
    requested.current = true
    import('#app/forms/form-validation.ts').then(
      (module) => setValidate(() => module.validatorFor(form) as Validate<Name>),
      // Offline, or a new deployment: try again on the next focus; the server validates meanwhile.
      () => {
        requested.current = false
      },
    )
  }, [form])
  const onValidate = useCallback(
    ({ formData }: { formData: FormData }): SubmissionOf<Name> =>
      validate ? validate(formData) : (parse(formData, { resolve: () => ({ value: {} }) }) as SubmissionOf<Name>),
    [validate],
  )
  return { onValidate, formProps: { onFocus: request, onPointerDown: request } }
}
