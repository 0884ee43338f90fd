import { type Language, languageTags } from '#app/i18n/config.ts'

const KB = 1024
const MB = 1024 * 1024

/** A file's size as people read it, in the user's language: "820 byte", "34 kB", "1,2 MB" (one decimal at most, binary units as phones and file managers show them). */
export function formatFileSize(bytes: number, language: Language): string {
  const [value, unit] = bytes >= MB ? [bytes / MB, 'megabyte'] : bytes >= KB ? [bytes / KB, 'kilobyte'] : [bytes, 'byte']
  return new Intl.NumberFormat(languageTags[language], { style: 'unit', unit, unitDisplay: 'short', maximumFractionDigits: 1 }).format(value)
}
