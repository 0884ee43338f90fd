/** The privacy page's address (docs/product.md §2), for its links on both sides. */
export const PRIVACY_PATH = '/configuracoes/privacidade'

/** The step that confirms taking a professional's access away (decision 0079), and whose: `?confirmar=revogar&profissional=4`. */
export const REVOKE_STEP = 'revogar'
export const REVOKE_PARAM = 'profissional'
