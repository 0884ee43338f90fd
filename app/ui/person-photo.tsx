/** A person's photo, or their initials when there is none (a professional's card, a conversation). */
export function PersonPhoto({ name, photo, size = 'size-20' }: { name: string; photo: string | null; size?: string }) {
  if (photo) return <img src={photo} alt="" width={80} height={80} className={`${size} shrink-0 rounded-full object-cover`} />
  const initials = name
    .split(/\s+/)
    .filter(Boolean)
    .map((part) => part[0])
    .slice(0, 2)
    .join('')
    .toUpperCase()
  return (
    <span aria-hidden="true" className={`${size} flex shrink-0 items-center justify-center rounded-full bg-brand-100 text-xl font-semibold text-brand-800`}>
      {initials}
    </span>
  )
}
