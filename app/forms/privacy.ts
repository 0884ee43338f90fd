/** The privacy page's address (docs/product.md §2), for its links on both sides. */
export const PRIVACY_PATH = '/configuracoes/privacidade'
