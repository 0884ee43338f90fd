import { useTranslation } from '#app/i18n/react.tsx'

const tones: Record<string, string> = {
  awaiting_payment: 'bg-amber-50 text-amber-900',
  scheduled: 'bg-brand-50 text-brand-800',
  confirmed: 'bg-brand-700 text-white',
  completed: 'bg-gray-100 text-gray-800',
  cancelled: 'bg-red-50 text-red-800',
  no_show: 'bg-amber-50 text-amber-900',
}

/** An appointment's status in words (aguardando pagamento, agendada, confirmada, realizada, cancelada, não compareceu). */
export function StatusBadge({ status }: { status: string }) {
  const { t } = useTranslation()
  return <span className={`rounded-full px-3 py-1 text-sm font-medium ${tones[status] ?? tones.completed}`}>{t(`appointmentStatus.${status}`)}</span>
}
