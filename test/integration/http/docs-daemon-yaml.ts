// The configuration the HTTP tests give the daemon for a docs fixture (test/support/docs-fixture.ts):
// its data folder, the local service, the fixture's `docs` mapping polled every second, and its
// OpenAPI spec file.
import { join } from 'node:path';
import type { DocsFixture } from '../../support/docs-fixture.js';

export interface DocsDaemonYaml {
  /** The service token: the admin's unless given. */
  token?: string;
  /** Top-level settings before the service, one per line: `locks: { busyDelay: 200ms }`. */
  top?: readonly string[];
  /** More settings of the docs mapping, one per line: `changeRequest: { poll: 1s }`. */
  docs?: readonly string[];
  /** More mappings after docs, as YAML list items. */
  mappings?: string;
  /** How often the spec is refreshed. */
  specEvery?: string;
}

export function docsDaemonYaml(fixture: DocsFixture, options: DocsDaemonYaml = {}): string {
  const { emulator } = fixture;
  const lines = (items: readonly string[] | undefined, indent: string) =>
    (items ?? []).map((line) => `${indent}${line}\n`).join('');
  return `dataDir: ${join(fixture.dir, 'data')}
${lines(options.top, '')}service: { baseUrl: "${emulator.baseUrl}", token: ${options.token ?? emulator.tokens.admin} }
mappings:
  - name: docs
    space: ${fixture.space}
    git: { repo: ${fixture.repo.remote}, branch: main, dir: docs, poll: 1s }
${lines(options.docs, '    ')}${options.mappings ?? ''}openapi:
  - { org: ${emulator.orgId}, slug: pets, every: ${options.specEvery ?? '1h'}, source: { file: ${fixture.specFile} } }
`;
}
