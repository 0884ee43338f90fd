import { parseWithZod } from '@conform-to/zod/v4'
import { type z } from 'zod'
import { changePasswordSchema, profileSchema } from './account-forms.ts'
import { bookingSchema, cancelSchema, consultationNotesSchema } from './appointment-forms.ts'
import { eventFormSchema } from './calendar-forms.ts'
import { forgotSchema, loginSchema, registerSchema, resendSchema, resetSchema } from './auth-forms.ts'
import { contactSchema } from './contact-form.ts'
import { habitFormSchema } from './habit-forms.ts'
import { productPriceSchema } from './product-price-form.ts'
import { accreditationSchema, activitySchema, groupsSchema, revocationSchema } from './admin-users.ts'
import { adminRefundSchema } from './admin-purchase-forms.ts'
import { deleteAccountSchema } from './privacy-forms.ts'
import { notificationSettingsSchema } from './notification-settings.ts'
import { scheduleSchema } from './schedule-form.ts'
import { courseContentSchema, lessonContentSchema, newCourseSchema, newLessonSchema } from './admin-content-courses.ts'
import { newQuestionnaireVersionSchema, questionnaireVersionSchema } from './questionnaire-version.ts'
import { classCancelSchema, classScheduleSchema, classTextsSchema, newClassSchema } from './admin-classes.ts'
import { adminNewProductSchema, adminPillarSchema, adminProductSchema } from './admin-catalogue.ts'

/**
 * Every conform form's client-side validation, in one chunk that the browser fetches when the user
 * first focuses a form (ui/deferred-validation.ts). The server validates with the same schemas.
 */
const schemas = {
  login: loginSchema,
  register: registerSchema,
  forgot: forgotSchema,
  resend: resendSchema,
  reset: resetSchema,
  profile: profileSchema,
  changePassword: changePasswordSchema,
  contact: contactSchema,
  schedule: scheduleSchema,
  booking: bookingSchema,
  cancelAppointment: cancelSchema,
  consultationNotes: consultationNotesSchema,
  calendarEvent: eventFormSchema,
  habit: habitFormSchema,
  productPrice: productPriceSchema,
  adminUserGroups: groupsSchema,
  adminUserActivity: activitySchema,
  adminAccreditation: accreditationSchema,
  adminRevocation: revocationSchema,
  adminRefund: adminRefundSchema,
  deleteAccount: deleteAccountSchema,
  notificationSettings: notificationSettingsSchema,
  adminCourse: courseContentSchema,
  adminNewCourse: newCourseSchema,
  adminLesson: lessonContentSchema,
  adminNewLesson: newLessonSchema,
  questionnaireVersion: questionnaireVersionSchema,
  newQuestionnaireVersion: newQuestionnaireVersionSchema,
  adminNewClass: newClassSchema,
  adminClassTexts: classTextsSchema,
  adminClassSchedule: classScheduleSchema,
  adminClassCancel: classCancelSchema,
  adminPillar: adminPillarSchema,
  adminProduct: adminProductSchema,
  adminNewProduct: adminNewProductSchema,
} satisfies Record<string, z.ZodType>

export type FormSchemas = typeof schemas
export type FormName = keyof FormSchemas

export function validatorFor<Name extends FormName>(form: Name) {
  const schema = schemas[form]
  return (formData: FormData) => parseWithZod(formData, { schema })
}
