// Where docsync's own files are (config/demo.yaml, package.json) whether it runs from src/ under
// vitest or from dist/ after a build, and the version it reports.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findPackageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (
      existsSync(manifest) &&
      (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'docsync'
    )
      return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('docsync package.json not found above the running module');
    dir = parent;
  }
}

export const PACKAGE_ROOT = findPackageRoot();

export const VERSION = (
  JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }
).version;

/** The configuration `docsync start` runs when none is given. */
export const DEMO_CONFIG = join(PACKAGE_ROOT, 'config', 'demo.yaml');
