// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { HttpResponse } from 'msw'
import { type ComponentType } from 'react'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import AdminPurchasePage, { action as detailAction, loader as detailLoader } from '#app/routes/admin.purchases.$id.tsx'
import AdminPurchases, { loader as listLoader } from '#app/routes/admin.purchases._index.tsx'
import { adminPurchaseDetailAnswer, adminPurchaseHandlers, refundedAnswer } from '#tests/mocks/admin-purchases.ts'
import { demoAdmin, signedIn } from '#tests/mocks/session.ts'
import { ignoreRouterFutureWarnings, renderRoute, type ServerFunction } from '#tests/mocks/route-stub.ts'

/**
 * The admin purchase pages as the browser draws them, over their real loaders and action (msw as
 * the provider): the filter form and export link without JavaScript, the refund said before its
 * form, and a refused refund keeping the reason typed.
 */

beforeEach(() => {
  ignoreRouterFutureWarnings()
})
afterEach(cleanup)

async function show(path: string, pattern: string, Component: ComponentType, loader: ServerFunction, action?: ServerFunction) {
  return renderRoute(path, [{ path: pattern, Component, loader, action }], { cookie: await signedIn(demoAdmin, { checked: true }) })
}

describe('admin purchase pages', () => {
  test('the list: a GET filter form keeping the filters, each purchase a link, the export keeping them too', async () => {
    adminPurchaseHandlers()
    await show('/admin/purchases?status=paid&search=pedro', '/admin/purchases', AdminPurchases, listLoader)
    const form = await screen.findByRole('search', { name: 'Filtros das compras' })
    expect(form).toHaveAttribute('method', 'get')
    expect(within(form).getByRole('combobox', { name: 'Situação' })).toHaveValue('paid')
    expect(within(form).getByRole('searchbox', { name: /Comprador/ })).toHaveValue('pedro')
    // The dates (app/ui's DateRangeFilter): empty when not asked, described by the zone's hint.
    expect(within(form).getByLabelText('De')).toHaveValue('')
    expect(within(form).getByLabelText('Até')).toHaveAttribute('type', 'date')
    expect(within(form).getByLabelText('Até')).toHaveAccessibleDescription(/Datas e horários em/)
    expect(screen.getByRole('link', { name: 'Exportar CSV' })).toHaveAttribute('href', '/admin/purchases/export?search=pedro&status=paid')
    const table = screen.getByRole('table', { name: 'Compras' })
    expect(within(table).getByRole('link', { name: 'Abrir a compra nº 42' })).toHaveAttribute('href', '/admin/purchases/42')
    expect(within(table).getByText('Pedro Santos')).toBeInTheDocument()
  })

  test('a purchase: what the terms refund said first, the reason required; a refusal keeps the reason and says why', async () => {
    adminPurchaseHandlers({ refund: () => HttpResponse.json({ detail: 'This purchase has already been refunded.', code: 'already_refunded' }, { status: 409 }) })
    await show('/admin/purchases/42', '/admin/purchases/:id', AdminPurchasePage, detailLoader, detailAction)
    expect(await screen.findByRole('heading', { level: 1, name: 'Compra nº 42' })).toBeInTheDocument()
    expect(screen.getByTestId('refund-quote')).toHaveTextContent('Pelos termos, esta compra pode ser reembolsada agora por inteiro: R$ 197,00.')
    expect(within(screen.getByTestId('purchase-events')).getAllByRole('listitem')).toHaveLength(2)
    expect(within(screen.getByTestId('webhook-deliveries')).getByText('payment_intent.succeeded')).toBeInTheDocument()
    const user = userEvent.setup()
    await user.type(screen.getByRole('textbox', { name: /Motivo do reembolso/ }), 'Pediu por telefone')
    await user.click(screen.getByRole('button', { name: /^Reembolsar R\$\s197,00$/ }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Esta compra já foi reembolsada.')
    expect(screen.getByRole('textbox', { name: /Motivo do reembolso/ })).toHaveValue('Pediu por telefone')
  })

  test('a refunded purchase: no form, its refund with who made it and why', async () => {
    adminPurchaseHandlers({ detail: () => HttpResponse.json(refundedAnswer()) })
    await show('/admin/purchases/42', '/admin/purchases/:id', AdminPurchasePage, detailLoader, detailAction)
    expect(await screen.findByTestId('refund-refusal')).toHaveTextContent('Esta compra já foi reembolsada.')
    expect(screen.queryByRole('button', { name: /Reembolsar/ })).toBeNull()
    const refunds = screen.getByTestId('refunds')
    expect(within(refunds).getByText(/Por Alice Admin \(admin\)/)).toBeInTheDocument()
    expect(within(refunds).getByText('Motivo: Pediu por telefone')).toBeInTheDocument()
    expect(screen.getByTestId('admin-purchase-status')).toHaveTextContent('Reembolsada')
  })

  test('payments Stripe spoke of that did not fit the purchase are marked beside its status and listed, each with why (decision 0074)', async () => {
    const mismatches = [
      { at: '2026-03-10T15:00:00.000Z', reason: 'unknown_payment_intent', payment_intent_id: 'pi_made_up_0001', amount_cents: 1, currency: 'usd', expected_cents: 19_700, stripe_event_id: 'evt_forged_1' },
      { at: '2026-03-10T15:05:00.000Z', reason: 'amount', payment_intent_id: 'pi_other', amount_cents: 100, currency: 'brl', expected_cents: 19_700, stripe_event_id: null },
    ]
    adminPurchaseHandlers({ detail: () => HttpResponse.json(adminPurchaseDetailAnswer({ status: 'pending', paid_at: null, payment_mismatches: mismatches })) })
    await show('/admin/purchases/42', '/admin/purchases/:id', AdminPurchasePage, detailLoader, detailAction)
    const mark = await screen.findByTestId('admin-purchase-mismatch')
    expect(mark).toHaveTextContent('2 pagamentos não aceitos')
    expect(mark).toHaveAttribute('href', '#mismatches-title')
    expect(screen.getByRole('heading', { level: 2, name: 'Pagamentos não aceitos' })).toBeInTheDocument()
    const items = within(screen.getByTestId('payment-mismatches')).getAllByRole('listitem')
    expect(items[0]).toHaveTextContent(/a Stripe não tem esse PaymentIntent/)
    expect(items[0]).toHaveTextContent('pi_made_up_0001')
    expect(items[0]).toHaveTextContent('Aviso da Stripe evt_forged_1')
    expect(items[1]).toHaveTextContent(/Chegaram R\$\s1,00 em vez de R\$\s197,00: nada foi liberado e o dinheiro é devolvido\./)
  })

  test('a purchase with no mismatch shows no mark (nor a provider that does not say them yet)', async () => {
    adminPurchaseHandlers()
    await show('/admin/purchases/42', '/admin/purchases/:id', AdminPurchasePage, detailLoader, detailAction)
    expect(await screen.findByRole('heading', { level: 1, name: 'Compra nº 42' })).toBeInTheDocument()
    expect(screen.queryByTestId('admin-purchase-mismatch')).toBeNull()
    expect(screen.queryByTestId('payment-mismatches')).toBeNull()
  })
})
