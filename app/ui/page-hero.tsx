import { type ReactNode } from 'react'

/** Buttons on the dark hero: the default focus ring is brand green, invisible on it, so it turns white. */
export const heroPrimaryButton = 'btn bg-white text-brand-800 hover:bg-brand-50 focus-visible:outline-white'
export const heroSecondaryButton = 'btn border border-white text-white hover:bg-brand-700 focus-visible:outline-white'

/** The opening band of a content page: its one h1, a lead and, optionally, calls to action. */
export function PageHero({ title, lead, actions, note }: { title: string; lead: string; actions?: ReactNode; note?: string }) {
  return (
    <div className="bg-brand-800 text-white">
      <div className="container-page py-14 sm:py-20">
        <h1 className="max-w-3xl text-4xl font-bold tracking-tight text-balance sm:text-5xl">{title}</h1>
        <p className="mt-5 max-w-2xl text-lg text-brand-50 sm:text-xl">{lead}</p>
        {actions ? <div className="mt-8 flex flex-wrap gap-3">{actions}</div> : null}
        {note ? <p className="mt-4 text-brand-50">{note}</p> : null}
      </div>
    </div>
  )
}
