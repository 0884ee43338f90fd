import { readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { findMigrationsDir } from '#server/db/client.ts'

/**
 * The digital materials' files (decision 0056): `server/media/materials/<slug>.pdf`, made by
 * scripts/make-materials.mjs from the project's own text and committed, found beside the
 * migrations from source and from the bundle alike. A
 * material's buyer downloads it through `GET /products/my-products/{id}/download/`.
 */

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

export function findMaterialsDir(): string {
  // <project>/server/db/migrations → <project>/server/media/materials
  return join(dirname(dirname(findMigrationsDir())), 'media', 'materials')
}

/** The material's file, or undefined when it has none. */
export async function readMaterial(directory: string, slug: string): Promise<Buffer | undefined> {
  if (!SLUG.test(slug)) return undefined
  try {
    return await readFile(join(directory, `${slug}.pdf`))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
}
