/** `dataWeCollect` → `data-we-collect`: translation keys double as stable in-page anchors in every language. */
export function anchorFromKey(key: string) {
  return key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)
}
