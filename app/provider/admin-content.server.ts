import { z } from 'zod'
import { type SignedInCaller } from './fetch.server.ts'

/** The content editor's front page as the provider answers it (GET /admin/content/, decision 0064). */
const amount = z.number().int().nonnegative()
const adminContentSummarySchema = z.object({
  pillars: z.object({ published: amount, drafts: amount }),
  products: z.object({ published: amount, on_sale: amount, drafts: amount }),
  courses: z.object({ published: amount, offered: amount, lessons: amount, drafts: amount }),
  live_classes: z.object({ upcoming: amount, drafts: amount }),
  questionnaire: z.object({ versions: amount, current: z.string().nullable(), drafts: amount }),
})

export const getAdminContentSummary = (auth: SignedInCaller) => auth.call('/admin/content/', adminContentSummarySchema)
