import { describe, expect, it } from 'vitest'
import { liveClassCancelledMessage, liveClassMovedMessage } from '#server/live-classes/notices.ts'

const to = { email: 'ana@example.com', firstName: 'Ana', timeZone: 'Europe/Lisbon' }
const base = { to, title: 'Yoga para dormir', teacherFirstName: 'Paula', link: 'http://app.test/aulas-ao-vivo/7' }

describe('the notices to a live class’s seat holders', () => {
  it('says the old and the new time in the person’s zone when the class moves', () => {
    const message = liveClassMovedMessage({ ...base, startsAt: new Date('2026-12-01T22:00:00Z'), previousStartsAt: new Date('2026-11-28T22:00:00Z'), durationMinutes: 60 })
    expect(message.subject).toBe('Aula ao vivo "Yoga para dormir": novo horário')
    expect(message.text).toMatch(/^Olá, Ana!/)
    expect(message.text).toContain('com Paula mudou de horário')
    expect(message.text).toContain('28 de novembro de 2026 às 22:00')
    expect(message.text).toContain('1 de dezembro de 2026 às 22:00')
    expect(message.text).toContain('60 minutos')
    expect(message.html).toContain('<a href="http://app.test/aulas-ao-vivo/7">')
  })

  it('says only the new length when the start stays', () => {
    const at = new Date('2026-12-01T22:00:00Z')
    const message = liveClassMovedMessage({ ...base, startsAt: at, previousStartsAt: at, durationMinutes: 90 })
    expect(message.subject).toBe('Aula ao vivo "Yoga para dormir": nova duração')
    expect(message.text).toContain('agora tem 90 minutos')
  })

  it('says a cancellation plainly, the seat released, and escapes the title in HTML', () => {
    const message = liveClassCancelledMessage({ ...base, title: 'Yoga <já>', startsAt: new Date('2026-12-01T22:00:00Z'), link: 'http://app.test/aulas-ao-vivo' })
    expect(message.subject).toBe('Aula ao vivo "Yoga <já>" cancelada')
    expect(message.text).toContain('foi cancelada e sua vaga, liberada')
    expect(message.html).toContain('Yoga &lt;já&gt;')
  })
})
