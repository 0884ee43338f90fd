import { type Role } from '#app/session/roles.ts'

/** One entry of the signed-in navigation: a page that exists, and its label's key (common namespace). */
type MemberNavItem = { to: string; key: string; end?: boolean }

/**
 * The signed-in areas each role gets, in the order they are shown. Only pages that exist are
 * listed (no dead links): each feature adds its entry when it lands (appointments, courses,
 * habits, live classes, messages and purchases for patients; schedule, availability and calendar for professionals).
 */
const AREAS: Record<Role, readonly MemberNavItem[]> = {
  paciente: [
    { to: '/dashboard', key: 'memberNav.dashboard', end: true },
    { to: '/avaliacao', key: 'memberNav.assessment' },
    { to: '/meu-programa', key: 'memberNav.program' },
    { to: '/habitos', key: 'memberNav.habits' },
    { to: '/cursos', key: 'memberNav.courses' },
    { to: '/aulas-ao-vivo', key: 'memberNav.liveClasses' },
    { to: '/consultas', key: 'memberNav.appointments' },
    // Messages with their professional between consultations (issue 44).
    { to: '/mensagens', key: 'memberNav.messages' },
    { to: '/solucoes', key: 'memberNav.solutions' },
  ],
  profissional: [
    { to: '/dashboard', key: 'memberNav.dashboardProfessional', end: true },
    { to: '/profissional/pacientes', key: 'memberNav.patientsList' },
    { to: '/mensagens', key: 'memberNav.messages' },
    { to: '/profissional/avaliacoes', key: 'memberNav.sharedAssessments' },
    { to: '/agenda/disponibilidade', key: 'memberNav.availability' },
    { to: '/agenda/calendario', key: 'memberNav.calendar' },
    // Professionals watch every course: they recommend them to their patients (decision 0057).
    { to: '/cursos', key: 'memberNav.courses' },
    // Professionals teach the live classes (decision 0058): theirs open as host from this list.
    { to: '/aulas-ao-vivo', key: 'memberNav.liveClasses' },
  ],
  admin: [
    { to: '/admin/dashboard', key: 'memberNav.overview' },
    { to: '/admin/users', key: 'memberNav.users' },
    // Pillars, products and prices, courses, live classes, the question bank (decision 0064).
    { to: '/admin/content', key: 'memberNav.content' },
    { to: '/admin/purchases', key: 'memberNav.purchases' },
    // Every professional's schedule, for support (decision 0061): /consultas with a professional filter.
    { to: '/consultas', key: 'memberNav.appointments' },
    { to: '/admin/messages', key: 'memberNav.messages' },
    { to: '/admin/audit', key: 'memberNav.audit' },
  ],
}

export function memberNavigation(role: Role): readonly MemberNavItem[] {
  return AREAS[role]
}

/** The navigation's accessible name: admins run the platform, the others have their own area. */
export const memberNavigationLabelKey = (role: Role) => (role === 'admin' ? 'memberNav.labelAdmin' : 'memberNav.label')
