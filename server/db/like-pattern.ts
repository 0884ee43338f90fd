/** A LIKE pattern that finds `text` anywhere, its wildcards escaped: a search for "50%" means the text "50%". */
export const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, '\\$&')}%`
