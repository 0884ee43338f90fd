import { type FullConfig } from '@playwright/test'
import { ensureBuild } from '../../bench/lib/build.mjs'
import { snapshotBuild } from '../../bench/lib/instance.mjs'

/**
 * Builds when needed, then copies the build aside: the suite's servers run from that copy, so a
 * rebuild of the shared checkout during the run cannot change the files under them.
 */
export default function globalSetup(_config: FullConfig) {
  ensureBuild({ log: (message: string) => console.log(`[faults] ${message}`) })
  const snapshot = snapshotBuild()
  process.env.FAULTS_BUILD_DIR = snapshot.dir
  return () => snapshot.remove()
}
