import { sql } from 'drizzle-orm'
import { type AnyPgColumn, boolean, check, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core'
import { users } from '#server/db/schema/accounts.ts'
import { type LocalizedText, SLUG_PATTERN, createdAt, instant, localizedTextCheck } from '#server/db/schema/columns.ts'
import { pillars } from '#server/db/schema/content.ts'

export const PRODUCT_TYPES = ['consultation_package', 'program', 'course', 'digital_material', 'subscription'] as const
export type ProductType = (typeof PRODUCT_TYPES)[number]
export const PLAN_INTERVALS = ['monthly', 'yearly', 'trial', 'program'] as const
export type PlanInterval = (typeof PLAN_INTERVALS)[number]
/** A consultation package holds one of these numbers of consultations. */
export const PACKAGE_SIZES = [1, 4, 8] as const
/** Prices are integer cents of BRL, from R$ 0,01 to R$ 100.000,00. */
export const MAX_PRICE_CENTS = 10_000_000
export const PRODUCT_NAME_MAX = 120
export const PRODUCT_DESCRIPTION_MAX = 2000

/**
 * The solutions catalogue (issue 24, decision 0045): what the platform sells. The type decides
 * which of the type-specific columns hold a value, and the CHECK constraints make every other
 * combination impossible to store: consultations (1, 4 or 8) and an optional professional (null:
 * any professional) only for a consultation package; weeks (8-12) for a program and for a
 * program-specific subscription; a plan interval and trial days (0-90, at least 1 for a trial)
 * only for a subscription. Inactive products are kept (purchases will point at them) and hidden.
 */
export const products = pgTable(
  'products',
  {
    id: serial('id').primaryKey(),
    // A stable, readable identity: the seed's key ("never duplicated") and a name for URLs.
    slug: varchar('slug', { length: 80 }).notNull().unique(),
    productType: varchar('product_type', { length: 30 }).$type<ProductType>().notNull(),
    category: varchar('category', { length: 40 }).notNull(),
    pillarSlug: varchar('pillar_slug', { length: 50 }).references(() => pillars.slug),
    name: jsonb('name').$type<LocalizedText>().notNull(),
    description: jsonb('description').$type<LocalizedText>().notNull(),
    priceCents: integer('price_cents').notNull(),
    active: boolean('active').notNull().default(true),
    sortOrder: integer('sort_order').notNull().default(0),
    consultations: integer('consultations'),
    professionalId: integer('professional_id').references(() => users.id, { onDelete: 'cascade' }),
    weeks: integer('weeks'),
    planInterval: varchar('plan_interval', { length: 10 }).$type<PlanInterval>(),
    trialDays: integer('trial_days'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [
    index('products_listing_idx').on(table.sortOrder, table.id).where(sql`${table.active}`),
    index('products_pillar_idx').on(table.pillarSlug),
    index('products_professional_idx').on(table.professionalId),
    check('products_slug_check', sql`${table.slug} ~ ${sql.raw(`'${SLUG_PATTERN}'`)}`),
    check('products_type_check', sql`${table.productType} in ('consultation_package', 'program', 'course', 'digital_material', 'subscription')`),
    check('products_category_check', sql`${table.category} ~ ${sql.raw(`'${SLUG_PATTERN}'`)}`),
    check('products_name_check', localizedTextCheck(table.name, PRODUCT_NAME_MAX)),
    check('products_description_check', localizedTextCheck(table.description, PRODUCT_DESCRIPTION_MAX)),
    check('products_price_check', sql`${table.priceCents} > 0 and ${table.priceCents} <= ${sql.raw(String(MAX_PRICE_CENTS))}`),
    check('products_sort_order_check', sql`${table.sortOrder} between 0 and 1000000`),
    // Each rule is written so that a NULL never makes it pass (a CHECK accepts NULL as "not false").
    check(
      'products_consultations_check',
      sql`(${table.productType} = 'consultation_package' and ${table.consultations} is not null and ${table.consultations} in (1, 4, 8)) or (${table.productType} <> 'consultation_package' and ${table.consultations} is null)`,
    ),
    check('products_professional_check', sql`${table.professionalId} is null or ${table.productType} = 'consultation_package'`),
    check(
      'products_plan_check',
      sql`(${table.productType} = 'subscription' and ${table.planInterval} is not null and ${table.trialDays} is not null and ${table.planInterval} in ('monthly', 'yearly', 'trial', 'program') and ${table.trialDays} between 0 and 90 and (${table.planInterval} <> 'trial' or ${table.trialDays} >= 1)) or (${table.productType} <> 'subscription' and ${table.planInterval} is null and ${table.trialDays} is null)`,
    ),
    check(
      'products_weeks_check',
      sql`((${table.productType} = 'program' or ${table.planInterval} is not distinct from 'program') and ${table.weeks} is not null and ${table.weeks} between 8 and 12) or (${table.productType} <> 'program' and ${table.planInterval} is distinct from 'program' and ${table.weeks} is null)`,
    ),
  ],
)

/** One line of an account's cart: a product and how many (docs/product.md §3, decision 0047). */
export type StoredCartLine = { product_id: number; quantity: number }
/** The most lines a cart holds (the app's CART_MAX_LINES). */
export const CART_MAX_LINES = 20

/**
 * An account's cart (issue 24, decision 0047): the copy that follows the member from browser to
 * browser. The browser's own copy is a signed cookie; the app merges the two at sign-in and
 * writes every change here too. Product ids only, never prices: those come from the catalogue.
 */
export const carts = pgTable(
  'carts',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    lines: jsonb('lines').$type<StoredCartLine[]>().notNull().default(sql`'[]'::jsonb`),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [check('carts_lines_check', sql`jsonb_typeof(${table.lines}) = 'array' and jsonb_array_length(${table.lines}) <= ${sql.raw(String(CART_MAX_LINES))}`)],
)

/** A purchase's statuses (docs/product.md §4, decision 0048). */
export const PURCHASE_STATUSES = ['pending', 'paid', 'failed', 'expired', 'cancelled', 'refunded'] as const
export type PurchaseStatus = (typeof PURCHASE_STATUSES)[number]

export const PURCHASE_METHODS = ['card', 'pix'] as const
export type PurchaseMethod = (typeof PURCHASE_METHODS)[number]
/** What moved a purchase from one status to another. */
/** `replaced`: cancelled because another purchase of the buyer was paid for its course, material or program (decision 0076). */
export const TRANSITION_SOURCES = ['create', 'webhook', 'refresh', 'cancel', 'expiry', 'reconcile', 'renew', 'replaced'] as const
export type TransitionSource = (typeof TRANSITION_SOURCES)[number]
export const GRANT_KINDS = ['course', 'material', 'program', 'consultation_credits'] as const
export type GrantKind = (typeof GRANT_KINDS)[number]
/** `superseded`: a payment of a purchase whose one-time product another purchase of the buyer holds (decision 0072). */
// wrong_amount: a payment of the purchase in another amount or currency, given back (decision 0074).
export const REFUND_REASONS = ['cancel', 'late_payment', 'double_payment', 'superseded', 'wrong_amount'] as const
export type PurchaseRefundReason = (typeof REFUND_REASONS)[number]
/** Stripe's largest amount (R$ 999.999,99): a purchase's total is at most this. */
export const MAX_PURCHASE_CENTS = 99_999_999
/** Stripe's smallest charge in reais (R$ 0,50): a purchase's total is at least this. */
export const MIN_PURCHASE_CENTS = 50

/** A subscription's statuses (decision 0052). */
export const SUBSCRIPTION_STATUSES = ['incomplete', 'trialing', 'active', 'past_due', 'ended'] as const
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number]
/** The statuses of a subscription that is not over: at most one per user and plan. */
export const LIVE_SUBSCRIPTION_STATUSES = ['incomplete', 'trialing', 'active', 'past_due'] as const satisfies readonly SubscriptionStatus[]
/** Why a subscription ended. */
export const SUBSCRIPTION_END_REASONS = ['not_paid', 'cancelled', 'withdrawn', 'term_over', 'lapsed', 'renewal_failed'] as const
export type SubscriptionEndReason = (typeof SUBSCRIPTION_END_REASONS)[number]

/**
 * A subscription to a plan (issue 24, decision 0052): who, which plan, how it is paid (a card
 * through Stripe Billing, or PIX one period at a time), the period paid for, the price the
 * subscriber pays and a price change told to them. Each payment is a purchase (`subscription_id`).
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id),
    method: varchar('method', { length: 10 }).$type<PurchaseMethod>().notNull(),
    status: varchar('status', { length: 20 }).$type<SubscriptionStatus>().notNull(),
    priceCents: integer('price_cents').notNull(),
    idempotencyKey: varchar('idempotency_key', { length: 64 }).notNull(),
    currentPeriodStart: instant('current_period_start'),
    currentPeriodEnd: instant('current_period_end'),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    // A new price told to the subscriber: it applies from `next_price_from` (30 days' notice at least).
    nextPriceCents: integer('next_price_cents'),
    nextPriceFrom: instant('next_price_from'),
    // A card's: the amount its Stripe Price charges at the next renewal (null: price_cents), so a new price is set at Stripe once.
    stripePriceCents: integer('stripe_price_cents'),
    // The period end a PIX reminder was sent for (once per period).
    remindedFor: instant('reminded_for'),
    // A card renewal that failed: since when, and how many times it was tried again.
    pastDueSince: instant('past_due_since'),
    renewalRetries: integer('renewal_retries').notNull().default(0),
    // When the subscriber last saved a new card at Stripe (decision 0055).
    cardUpdatedAt: instant('card_updated_at'),
    stripeSubscriptionId: varchar('stripe_subscription_id', { length: 255 }),
    stripeCheckoutSessionId: varchar('stripe_checkout_session_id', { length: 255 }),
    // Stripe's page where the card is given (a renewing plan by card), while it is open.
    checkoutUrl: text('checkout_url'),
    firstPaidAt: instant('first_paid_at'),
    endedAt: instant('ended_at'),
    endedReason: varchar('ended_reason', { length: 20 }).$type<SubscriptionEndReason>(),
    // Live beside another of the same user before one plan at a time was the rule (migration 0027,
    // decision 0072): left out of that rule until it ends. Never set otherwise.
    legacyOverlap: boolean('legacy_overlap').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: instant('updated_at').notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('subscriptions_user_idempotency_key_unique').on(table.userId, table.idempotencyKey),
    // One live subscription per user and plan: the database decides, also between two processes.
    uniqueIndex('subscriptions_live_unique')
      .on(table.userId, table.productId)
      .where(sql`${table.status} in ('incomplete', 'trialing', 'active', 'past_due')`),
    // One live subscription per user, whatever the plan: every plan gives the same access (decision 0072).
    uniqueIndex('subscriptions_one_live_per_user_unique')
      .on(table.userId)
      .where(sql`${table.status} in ('incomplete', 'trialing', 'active', 'past_due') and not ${table.legacyOverlap}`),
    uniqueIndex('subscriptions_stripe_unique').on(table.stripeSubscriptionId).where(sql`${table.stripeSubscriptionId} is not null`),
    uniqueIndex('subscriptions_checkout_session_unique').on(table.stripeCheckoutSessionId).where(sql`${table.stripeCheckoutSessionId} is not null`),
    index('subscriptions_user_idx').on(table.userId, table.createdAt, table.id),
    index('subscriptions_period_end_idx').on(table.currentPeriodEnd, table.id).where(sql`${table.status} in ('trialing', 'active', 'past_due')`),
    check('subscriptions_status_check', sql`${table.status} in ('incomplete', 'trialing', 'active', 'past_due', 'ended')`),
    check('subscriptions_method_check', sql`${table.method} in ('card', 'pix')`),
    check('subscriptions_price_check', sql`${table.priceCents} > 0 and ${table.priceCents} <= 99999999 and (${table.nextPriceCents} is null or (${table.nextPriceCents} > 0 and ${table.nextPriceCents} <= 99999999 and ${table.nextPriceFrom} is not null))`),
    check('subscriptions_period_check', sql`(${table.currentPeriodStart} is null) = (${table.currentPeriodEnd} is null) and (${table.currentPeriodEnd} is null or ${table.currentPeriodEnd} > ${table.currentPeriodStart})`),
    check('subscriptions_live_period_check', sql`${table.status} not in ('trialing', 'active', 'past_due') or ${table.currentPeriodEnd} is not null`),
    check('subscriptions_ended_check', sql`(${table.status} = 'ended') = (${table.endedAt} is not null and ${table.endedReason} is not null)`),
    check('subscriptions_retries_check', sql`${table.renewalRetries} between 0 and 10`),
    check('subscriptions_stripe_price_check', sql`${table.stripePriceCents} is null or (${table.stripePriceCents} > 0 and ${table.stripePriceCents} <= 99999999)`),
  ],
)

/**
 * A purchase (issue 24, decision 0048): what a user buys in one payment, by card (a Stripe
 * Checkout Session) or PIX (a PaymentIntent with its BR Code). Prices are copied from the
 * products when it is made (purchase_items); the status only moves forward (statuses.ts).
 */
export const purchases = pgTable(
  'purchases',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    status: varchar('status', { length: 20 }).$type<PurchaseStatus>().notNull(),
    method: varchar('method', { length: 10 }).$type<PurchaseMethod>().notNull(),
    totalCents: integer('total_cents').notNull(),
    currency: varchar('currency', { length: 3 }).notNull().default('brl'),
    idempotencyKey: varchar('idempotency_key', { length: 64 }).notNull(),
    stripePaymentIntentId: varchar('stripe_payment_intent_id', { length: 255 }),
    stripeCheckoutSessionId: varchar('stripe_checkout_session_id', { length: 255 }),
    pixData: text('pix_data'),
    pixExpiresAt: instant('pix_expires_at'),
    // Stripe's page with the code and how to pay it (the fake's development page to pay or refuse it).
    pixInstructionsUrl: text('pix_instructions_url'),
    checkoutUrl: text('checkout_url'),
    checkoutExpiresAt: instant('checkout_expires_at'),
    failureCode: varchar('failure_code', { length: 100 }),
    failureMessage: varchar('failure_message', { length: 500 }),
    refundedCents: integer('refunded_cents').notNull().default(0),
    // It pays a consultation whose time is held until it is paid or ends unpaid (decision 0051).
    holdsTime: boolean('holds_time').notNull().default(false),
    // A subscription's payment (decision 0052): the subscription, the period it pays, and for a
    // card renewal the Stripe invoice (one purchase per invoice).
    subscriptionId: integer('subscription_id').references(() => subscriptions.id),
    periodStart: instant('period_start'),
    periodEnd: instant('period_end'),
    stripeInvoiceId: varchar('stripe_invoice_id', { length: 255 }),
    paidAt: instant('paid_at'),
    // When the reconciliation last asked Stripe about this pending purchase.
    checkedAt: instant('checked_at'),
    // When the receipt e-mail was queued (once; decision 0054).
    receiptSentAt: instant('receipt_sent_at'),
    // Cancelled because this other purchase of the buyer was paid for one of its courses, materials
    // or programs (decision 0076), and when its way to pay was closed at Stripe (null: still to do).
    replacedByPurchaseId: integer('replaced_by_purchase_id').references((): AnyPgColumn => purchases.id),
    stripeClosedAt: instant('stripe_closed_at'),
    createdAt: createdAt(),
    updatedAt: instant('updated_at').notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('purchases_user_idempotency_key_unique').on(table.userId, table.idempotencyKey),
    uniqueIndex('purchases_payment_intent_unique').on(table.stripePaymentIntentId).where(sql`${table.stripePaymentIntentId} is not null`),
    uniqueIndex('purchases_checkout_session_unique').on(table.stripeCheckoutSessionId).where(sql`${table.stripeCheckoutSessionId} is not null`),
    uniqueIndex('purchases_invoice_unique').on(table.stripeInvoiceId).where(sql`${table.stripeInvoiceId} is not null`),
    index('purchases_subscription_idx').on(table.subscriptionId, table.id).where(sql`${table.subscriptionId} is not null`),
    check('purchases_period_check', sql`(${table.periodStart} is null) = (${table.periodEnd} is null) and (${table.periodEnd} is null or ${table.periodEnd} > ${table.periodStart})`),
    index('purchases_user_created_idx').on(table.userId, table.createdAt, table.id),
    index('purchases_pending_idx').on(table.checkedAt, table.id).where(sql`${table.status} = 'pending'`),
    index('purchases_receipt_due_idx').on(table.paidAt, table.id).where(sql`${table.paidAt} is not null and ${table.receiptSentAt} is null`),
    index('purchases_stripe_close_due_idx').on(table.updatedAt, table.id).where(sql`${table.replacedByPurchaseId} is not null and ${table.stripeClosedAt} is null`),
    check('purchases_replaced_check', sql`${table.replacedByPurchaseId} is null or (${table.replacedByPurchaseId} <> ${table.id} and ${table.status} in ('cancelled', 'refunded'))`),
    check('purchases_status_check', sql`${table.status} in ('pending', 'paid', 'failed', 'expired', 'cancelled', 'refunded')`),
    check('purchases_method_check', sql`${table.method} in ('card', 'pix')`),
    check('purchases_total_check', sql`${table.totalCents} > 0 and ${table.totalCents} <= 99999999`),
    check('purchases_currency_check', sql`${table.currency} = 'brl'`),
    check('purchases_refunded_check', sql`${table.refundedCents} >= 0 and ${table.refundedCents} <= ${table.totalCents}`),
    check('purchases_paid_check', sql`${table.status} not in ('paid', 'refunded') or ${table.paidAt} is not null`),
  ],
)

/** What a purchase's line is: a product of the catalogue, one consultation's time (decision 0051), or a period of a subscription's plan (decision 0052). */
export type PurchaseItemType = ProductType | 'consultation'

/** One product of a purchase (or the consultation it pays), with its price and name as they were when bought. */
export const purchaseItems = pgTable(
  'purchase_items',
  {
    id: serial('id').primaryKey(),
    purchaseId: integer('purchase_id')
      .notNull()
      .references(() => purchases.id, { onDelete: 'cascade' }),
    // Null for a single consultation (decision 0051): it is no product of the catalogue.
    productId: integer('product_id').references(() => products.id),
    productType: varchar('product_type', { length: 30 }).$type<PurchaseItemType>().notNull(),
    name: jsonb('name').$type<LocalizedText>().notNull(),
    quantity: integer('quantity').notNull(),
    unitCents: integer('unit_cents').notNull(),
    lineCents: integer('line_cents').notNull(),
    // A package's consultations and professional (null: any), as sold.
    consultations: integer('consultations'),
    professionalId: integer('professional_id').references(() => users.id, { onDelete: 'set null' }),
  },
  (table) => [
    uniqueIndex('purchase_items_purchase_product_unique').on(table.purchaseId, table.productId),
    check('purchase_items_quantity_check', sql`${table.quantity} between 1 and 10`),
    check('purchase_items_unit_check', sql`${table.unitCents} > 0`),
    check('purchase_items_line_check', sql`${table.lineCents} = ${table.unitCents} * ${table.quantity}`),
    check(
      'purchase_items_type_check',
      sql`${table.productType} in ('consultation_package', 'program', 'course', 'digital_material', 'subscription', 'consultation') and ((${table.productType} = 'consultation') = (${table.productId} is null))`,
    ),
  ],
)

/** Every status change of a purchase: from (null at creation), to, when, what moved it, and the Stripe event when one did. */
export const purchaseTransitions = pgTable(
  'purchase_transitions',
  {
    id: serial('id').primaryKey(),
    purchaseId: integer('purchase_id')
      .notNull()
      .references(() => purchases.id, { onDelete: 'cascade' }),
    fromStatus: varchar('from_status', { length: 20 }).$type<PurchaseStatus>(),
    toStatus: varchar('to_status', { length: 20 }).$type<PurchaseStatus>().notNull(),
    at: instant('at').notNull(),
    source: varchar('source', { length: 20 }).$type<TransitionSource>().notNull(),
    stripeEventId: varchar('stripe_event_id', { length: 255 }),
  },
  (table) => [
    index('purchase_transitions_purchase_idx').on(table.purchaseId, table.id),
    check('purchase_transitions_source_check', sql`${table.source} in ('create', 'webhook', 'refresh', 'cancel', 'expiry', 'reconcile', 'renew', 'replaced')`),
  ],
)

/** Stripe events already processed: the primary key makes each one count once, across processes. */
export const stripeWebhookEvents = pgTable('stripe_webhook_events', {
  eventId: varchar('event_id', { length: 255 }).primaryKey(),
  type: varchar('type', { length: 100 }).notNull(),
  receivedAt: instant('received_at').notNull(),
})

/** What a paid purchase gives its buyer: one row per product, made once (the unique index), revoked by a refund. */
export const purchaseGrants = pgTable(
  'purchase_grants',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id),
    purchaseId: integer('purchase_id')
      .notNull()
      .references(() => purchases.id, { onDelete: 'cascade' }),
    kind: varchar('kind', { length: 30 }).$type<GrantKind>().notNull(),
    availableAt: instant('available_at').notNull(),
    revokedAt: instant('revoked_at'),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('purchase_grants_purchase_product_unique').on(table.purchaseId, table.productId),
    index('purchase_grants_user_idx').on(table.userId, table.availableAt, table.id),
    check('purchase_grants_kind_check', sql`${table.kind} in ('course', 'material', 'program', 'consultation_credits')`),
  ],
)

/**
 * The one purchase of a buyer that may give a one-time product (a course, digital material or
 * program; decision 0072): pending, or paid with the product's access in force. The primary key
 * is the rule, decided by the database between two checkouts at once, from any process. Written
 * with the purchase (or when a failed one is paid after all and the product is free), released
 * when it fails, expires or is cancelled, or when the product's access ends (revokeGrants).
 */
export const purchaseClaims = pgTable(
  'purchase_claims',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id),
    purchaseId: integer('purchase_id')
      .notNull()
      .references(() => purchases.id, { onDelete: 'cascade' }),
    claimedAt: instant('claimed_at').notNull(),
  },
  (table) => [primaryKey({ name: 'purchase_claims_pk', columns: [table.userId, table.productId] }), index('purchase_claims_purchase_idx').on(table.purchaseId, table.productId)],
)

/** A paid package's consultations: with its professional, or any (null); `used` never above `total`. */
export const consultationCredits = pgTable(
  'consultation_credits',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    purchaseId: integer('purchase_id')
      .notNull()
      .references(() => purchases.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id),
    professionalId: integer('professional_id').references(() => users.id, { onDelete: 'set null' }),
    total: integer('total').notNull(),
    used: integer('used').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: instant('updated_at').notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('consultation_credits_purchase_product_unique').on(table.purchaseId, table.productId),
    index('consultation_credits_user_idx').on(table.userId),
    check('consultation_credits_total_check', sql`${table.total} >= 0 and ${table.total} <= 1000`),
    check('consultation_credits_used_check', sql`${table.used} >= 0 and ${table.used} <= ${table.total}`),
  ],
)

/**
 * Refunds the provider asks Stripe for: written in the transaction that decides them (one per
 * payment and reason, the unique index), sent to Stripe after it commits, retried by the
 * purchases' tick until Stripe answers.
 */
export const purchaseRefunds = pgTable(
  'purchase_refunds',
  {
    id: serial('id').primaryKey(),
    purchaseId: integer('purchase_id')
      .notNull()
      .references(() => purchases.id, { onDelete: 'cascade' }),
    paymentIntentId: varchar('payment_intent_id', { length: 255 }).notNull(),
    amountCents: integer('amount_cents').notNull(),
    reason: varchar('reason', { length: 20 }).$type<PurchaseRefundReason>().notNull(),
    status: varchar('status', { length: 20 }).$type<'pending' | 'succeeded' | 'failed'>().notNull().default('pending'),
    stripeRefundId: varchar('stripe_refund_id', { length: 255 }),
    failureMessage: varchar('failure_message', { length: 500 }),
    attempts: integer('attempts').notNull().default(0),
    // When the buyer was told the refund was made (once; decision 0054).
    notifiedAt: instant('notified_at'),
    createdAt: createdAt(),
    updatedAt: instant('updated_at').notNull().defaultNow(),
  },
  (table) => [
    index('purchase_refunds_notice_due_idx').on(table.id).where(sql`${table.status} = 'succeeded' and ${table.notifiedAt} is null`),
    uniqueIndex('purchase_refunds_payment_reason_unique').on(table.paymentIntentId, table.reason),
    index('purchase_refunds_pending_idx').on(table.updatedAt, table.id).where(sql`${table.status} = 'pending'`),
    check('purchase_refunds_amount_check', sql`${table.amountCents} > 0`),
    check('purchase_refunds_reason_check', sql`${table.reason} in ('cancel', 'late_payment', 'double_payment', 'superseded', 'wrong_amount')`),
    check('purchase_refunds_status_check', sql`${table.status} in ('pending', 'succeeded', 'failed')`),
  ],
)
