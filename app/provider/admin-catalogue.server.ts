import { type SignedInCaller } from './fetch.server.ts'
import {
  adminPillarItemSchema,
  adminPillarListSchema,
  adminPillarSchema,
  adminProductItemSchema,
  adminProductListSchema,
  adminProductSchema,
  pillarDraftSchema,
  productDraftSchema,
} from './admin-catalogue-schemas.ts'

/** The catalogue's editor (admins only; decisions 0064 and 0065): pillars' texts and products, through drafts. */

const path = (kind: 'pillars' | 'products', key?: string, action?: 'draft' | 'publish') =>
  `/admin/content/${kind}/${key === undefined ? '' : `${encodeURIComponent(key)}/`}${action ? `${action}/` : ''}`

export const listAdminPillars = (auth: SignedInCaller) => auth.call(path('pillars'), adminPillarListSchema)
export const getAdminPillar = (auth: SignedInCaller, slug: string) => auth.call(path('pillars', slug), adminPillarItemSchema)
export const savePillarDraft = (auth: SignedInCaller, slug: string, body: Record<string, unknown>) => auth.call(path('pillars', slug, 'draft'), pillarDraftSchema, { method: 'PUT', json: body })
export const discardPillarDraft = (auth: SignedInCaller, slug: string) => auth.send(path('pillars', slug, 'draft'), { method: 'DELETE' })
export const publishPillar = (auth: SignedInCaller, slug: string, body: Record<string, unknown>) => auth.call(path('pillars', slug, 'publish'), adminPillarSchema, { method: 'POST', json: body })

export const listAdminProducts = (auth: SignedInCaller) => auth.call(path('products'), adminProductListSchema)
export const getAdminProduct = (auth: SignedInCaller, slug: string) => auth.call(path('products', slug), adminProductItemSchema)
export const saveProductDraft = (auth: SignedInCaller, slug: string, body: Record<string, unknown>) => auth.call(path('products', slug, 'draft'), productDraftSchema, { method: 'PUT', json: body })
export const discardProductDraft = (auth: SignedInCaller, slug: string) => auth.send(path('products', slug, 'draft'), { method: 'DELETE' })
export const publishProduct = (auth: SignedInCaller, slug: string, body: Record<string, unknown>) => auth.call(path('products', slug, 'publish'), adminProductSchema, { method: 'POST', json: body })
