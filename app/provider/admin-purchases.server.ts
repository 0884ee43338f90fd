import { type SignedInCaller } from './fetch.server.ts'
import { adminPurchaseDetailSchema, adminPurchasePageSchema } from './admin-purchase-schemas.ts'
import { type PaymentMethod, type PurchaseStatus } from './purchase-schemas.ts'

/** The admin list's filters as the provider takes them: dates are days (YYYY-MM-DD), both included, of `tz` (São Paulo's without it). */
export type AdminPurchaseQuery = { status?: PurchaseStatus; method?: PaymentMethod; from?: string; to?: string; search?: string; tz?: string }

/** A page of every buyer's purchases, newest first (admins only; docs/product.md §7). */
export const listAdminPurchases = (auth: SignedInCaller, query: AdminPurchaseQuery, page: number | 'last', pageSize: number) =>
  auth.call('/admin/purchases/', adminPurchasePageSchema, { query: { ...query, page: page === 1 ? undefined : page, page_size: pageSize } })

/** One purchase with its events, Stripe's deliveries, its refunds and what the terms would refund now. */
export const getAdminPurchase = (auth: SignedInCaller, id: number) => auth.call(`/admin/purchases/${id}/`, adminPurchaseDetailSchema)

/** Refunds what the terms give now, the reason recorded (decision 0061); the same reason again changes nothing. */
export const refundAdminPurchase = (auth: SignedInCaller, id: number, reason: string) =>
  auth.call(`/admin/purchases/${id}/refund/`, adminPurchaseDetailSchema, { method: 'POST', json: { reason } })

/** The filtered list as CSV, streamed through as the provider writes it. */
export const exportAdminPurchases = (auth: SignedInCaller, query: AdminPurchaseQuery) => auth.stream('/admin/purchases/export/', { query })
