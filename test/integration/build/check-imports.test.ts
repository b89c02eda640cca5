// The import boundary between docsync and its local service, as `npm run lint` enforces it: run as
// lint runs it, on small source trees written for the test, and on this repository.
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const SCRIPT = join(import.meta.dirname, '../../../src/build/check-imports.mjs');
const REPO = join(import.meta.dirname, '../../..');

const roots: string[] = [];

afterEach(async () => {
  await Promise.all(roots.splice(0).map((root) => rm(root, { recursive: true, force: true })));
});

async function tree(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'check-imports-'));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
  return root;
}

function check(root: string) {
  const run = spawnSync(process.execPath, [SCRIPT, root], { encoding: 'utf8' });
  return { status: run.status, stderr: run.stderr };
}

describe('the import check of npm run lint', () => {
  it('refuses an import of docsync code from the local service, naming file, line, rule and fix', async () => {
    const root = await tree({
      'src/emulator/routes/render-page.ts':
        "// Renders a page.\nimport { z } from 'zod';\nimport { readFolder } from '../../content/folder-to-tree.js';\n",
      'src/content/folder-to-tree.ts': 'export const readFolder = 1;\n',
    });
    const { status, stderr } = check(root);
    expect(status).toBe(1);
    expect(stderr).toContain(
      "src/emulator/routes/render-page.ts:3: imports '../../content/folder-to-tree.js' (src/content/folder-to-tree.js)\n" +
        '  rule: the local service (src/emulator/) imports only itself, src/api/schemas/, src/log/ and src/errors/\n' +
        '  fix: give the local service its own code for this',
    );
    expect(stderr).toContain('1 import(s) cross the boundary between docsync and its local service');
  });

  it('refuses type-only imports, re-exports and dynamic imports across the boundary, in both directions and from jobs/', async () => {
    const root = await tree({
      'src/emulator/a.ts': "import type { Config } from '../config/config-schema.js';\n",
      'src/emulator/b.ts': "export { blobId } from '../content/folder-bytes.js';\n",
      'src/queue/c.ts': "const emulator = await import('../emulator/create-emulator.js');\n",
      'src/api/schemas/d.ts': "import { apiPath } from '../api-path.js';\n",
      'jobs/e.ts': "import { Faults } from '../src/emulator/faults.js';\n",
    });
    const { status, stderr } = check(root);
    expect(status).toBe(1);
    expect(stderr).toContain("src/emulator/a.ts:1: imports '../config/config-schema.js'");
    expect(stderr).toContain("src/emulator/b.ts:1: imports '../content/folder-bytes.js'");
    expect(stderr).toContain(
      "src/queue/c.ts:1: imports '../emulator/create-emulator.js' (src/emulator/create-emulator.js)\n" +
        '  rule: docsync does not import the local service (src/emulator/)',
    );
    expect(stderr).toContain("src/api/schemas/d.ts:1: imports '../api-path.js'");
    expect(stderr).toContain("jobs/e.ts:1: imports '../src/emulator/faults.js' (src/emulator/faults.js)");
    expect(stderr).toContain('5 import(s) cross the boundary');
  });

  it('lets the local service use itself, the shared schemas, log, errors and packages, and the CLI and demo start it', async () => {
    const root = await tree({
      'src/emulator/routes/a.ts': [
        "import { readFile } from 'node:fs/promises';",
        "import { parseDocument } from 'yaml';",
        "import { ROLES } from '../../api/schemas/service-enums.js';",
        "import type { Logger } from '../../log/create-logger.js';",
        "import { EnvironmentError } from '../../errors/environment-error.js';",
        "import { roleAtLeast } from '../roles.js';",
        "// import { readFolder } from '../../content/folder-to-tree.js';",
        '',
      ].join('\n'),
      'src/cli/emulator-command.ts': "import { parseFaultSpec } from '../emulator/faults.js';\n",
      'src/demo/start-demo.ts': "import { createEmulator } from '../emulator/create-emulator.js';\n",
      'src/api/teams-api.ts': "import { TEAM_MEMBER_ROLES } from './schemas/service-enums.js';\n",
    });
    expect(check(root)).toEqual({ status: 0, stderr: '' });
  });

  it('passes on this repository', () => {
    expect(check(REPO)).toEqual({ status: 0, stderr: '' });
  });
});
