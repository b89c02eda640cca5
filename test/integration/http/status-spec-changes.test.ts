// A new version whose change goes through a shared component: /status, the status page and
// `docsync status` show every operation it changed (not only those whose own text changed), with
// the counts, the long list folded on the page.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JOBS } from '../../../jobs/registry.js';
import { runCli } from '../../support/cli-process.js';
import { startTestDaemon } from '../../support/start-test-daemon.js';
import { startTestEmulator } from '../../support/start-test-emulator.js';
import { tempDir, uniquePrefix } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';

/** Operations reading a Pet: more than the page lists open. */
const PETS = Array.from({ length: 12 }, (_, i) => `/pets/${String(i).padStart(2, '0')}`);

function spec(petProperties: string, ownSummary: string): string {
  const paths = PETS.map(
    (path) =>
      `  ${path}:\n    get:\n      responses:\n        '200':\n          description: a pet\n          content:\n            application/json:\n              schema: { $ref: '#/components/schemas/Pet' }\n`,
  ).join('');
  return `openapi: 3.0.3
info: { title: Pets, version: "1" }
paths:
${paths}  /health:
    get:
      summary: ${ownSummary}
      responses: { '200': { description: ok } }
components:
  schemas:
    Pet:
      type: object
      properties: { ${petProperties} }
`;
}

interface Changes {
  added: string[];
  removed: string[];
  changed: string[];
  changedVia?: Array<{ operation: string; components: string[] }>;
  breaking?: Array<{ operation: string; message: string }>;
  counts?: Record<string, number>;
}

interface Answer {
  openapi: Array<{ version?: string; lastNewVersion?: { version?: string; changes?: Changes } }>;
}

describe('the changelog of the last version in the status', () => {
  it('lists every operation changed through a shared component in /status, on the page and in docsync status', async () => {
    const emulator = await startTestEmulator();
    const dir = await tempDir('status-spec-changes');
    const file = join(dir, 'pets.yaml');
    await writeFile(file, spec('name: { type: string }, tag: { type: string }', 'health'));
    const daemon = await startTestDaemon({
      prefix: uniquePrefix('status-spec-changes'),
      service: emulator,
      jobs: JOBS,
      yaml: `openapi:\n  - { org: ${emulator.orgId}, slug: pets, every: 1s, source: { file: ${file} } }\n`,
    });
    const status = async () => (await (await fetch(`${daemon.httpAddress}/status`)).json()) as Answer;
    const first = await waitFor(async () => (await status()).openapi[0]?.version, 'the first version');

    // The Pet loses a property (breaking for readers of tag) and /health its own summary.
    await writeFile(file, spec('name: { type: string }', 'is it up'));
    const changes = await waitFor(async () => {
      const last = (await status()).openapi[0]?.lastNewVersion;
      return last?.version !== undefined && last.version !== first ? last.changes : undefined;
    }, 'the second version');

    const operations = PETS.map((path) => `GET ${path}`);
    expect(changes).toMatchObject({
      added: [],
      removed: [],
      changed: ['GET /health'],
      changedVia: operations.map((operation) => ({ operation, components: ['components/schemas/Pet'] })),
      counts: { added: 0, removed: 0, changed: 1, changedVia: 12, breaking: expect.any(Number) },
    });

    const page = await (await fetch(`${daemon.httpAddress}/`)).text();
    expect(page).toContain('<summary>changed through components: 12</summary>');
    for (const operation of operations)
      expect(page).toContain(`<li>${operation} (via components/schemas/Pet)</li>`);
    expect(page).toContain('1 changed, 12 changed through components');

    const cli = await runCli(['status', '--url', daemon.httpAddress]);
    expect(cli.stderr).toBe('');
    expect(cli.stdout).toContain('changed through components (12):');
    for (const operation of operations)
      expect(cli.stdout).toContain(`      ${operation} (via components/schemas/Pet)\n`);
    expect(cli.stdout).toContain('      GET /health\n');
  });
});
