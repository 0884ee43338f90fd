import { type FullConfig } from '@playwright/test'
import { ensureBuild } from '../../scripts/lib/build.mjs'
import { snapshotBuild } from '../../bench/lib/instance.mjs'

/**
 * Builds when needed, then copies the build aside: the suite's servers run from that copy, so a
 * rebuild of the shared checkout during the run cannot change the files under them.
 */
export default function globalSetup(_config: FullConfig) {
  // On stderr: stdout is the reporter's (a JSON report must stay JSON).
  if (!ensureBuild({ log: (message: string) => console.error(`[faults] ${message}`) })) throw new Error('the build failed')
  const snapshot = snapshotBuild()
  process.env.FAULTS_BUILD_DIR = snapshot.dir
  return () => snapshot.remove()
}
