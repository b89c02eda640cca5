// `docsync validate-config` on files with several problems at once: every one is shown in one run,
// each on its own line with its place and what to do, and a YAML syntax error quotes nothing.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliEnv, runCli } from '../../support/cli-process.js';
import { tempDir } from '../../support/test-context.js';

/** A docsync.yaml of `lines` in a new folder. */
async function configFile(label: string, lines: readonly string[]): Promise<string> {
  const file = join(await tempDir(label), 'docsync.yaml');
  await writeFile(file, lines.join('\n'));
  return file;
}

describe('docsync validate-config with many problems', () => {
  it('shows a missing variable, a typo, a boolean and a file source together, with exit code 2', async () => {
    const file = await configFile('validate-all', [
      'service:',
      '  baseUrl: https://docs.example.com/v1',
      '  token: ${DOCSYNC_TOKEN}',
      'mappings:',
      '  - name: docs',
      '    space: space_1',
      '    git: { repo: ./repo, branch: main }',
      '    merge:',
      '      enabled: yes',
      '      aprovals: 2',
      'openapi:',
      '  - org: acme',
      '    slug: pets',
      '    every: 1h',
      '    source: ./openapi.yaml',
      '',
    ]);
    const { code, stdout, stderr } = await runCli(['validate-config', file], { env: cliEnv() });
    expect(stdout).toBe('');
    expect(stderr.split('\n')).toEqual([
      `${file}: invalid configuration, 4 problem(s):`,
      `  service.token: environment variable DOCSYNC_TOKEN is not set: set it, or write \${DOCSYNC_TOKEN:-default} (${file}:3:10)`,
      `  mappings[0].merge.enabled: expected boolean, got string: write true without quotes (YAML reads yes, no, on, off and quoted values as text) (${file}:9:16)`,
      `  mappings[0].merge.aprovals: unknown key: did you mean \`approvals\`? (${file}:10:7)`,
      `  openapi[0].source: "./openapi.yaml" is not a URL: for a local file write source: { file: ./openapi.yaml }, for a file of a mapped repository source: { mapping: <name>, path: ./openapi.yaml } (${file}:15:13)`,
      '',
    ]);
    expect(code).toBe(2);
  });

  it('shows a space claimed twice with the problems of single keys, in validate-config and start alike', async () => {
    const file = await configFile('validate-across', [
      'service: { baseUrl: "https://docs.example.com/v1", token: t }',
      'http: { listen: 127.0.0.1:0 }',
      'mappings:',
      '  - name: docs',
      '    space: space_1',
      '    git: { repo: ./repo, branch: main }',
      '    merge: { enabled: yes }',
      '  - { name: api, space: space_1, git: { repo: ./api, branch: main } }',
      '',
    ]);
    const expected = [
      `${file}: invalid configuration, 2 problem(s):`,
      `  mappings[0].merge.enabled: expected boolean, got string: write true without quotes (YAML reads yes, no, on, off and quoted values as text) (${file}:7:23)`,
      `  mappings[1].space: mappings[0] (docs) already maps space space_1 (${file}:8:25)`,
      '',
    ];
    for (const command of [
      ['validate-config', file],
      ['start', '--config', file],
    ]) {
      const { code, stdout, stderr } = await runCli(command, { env: cliEnv() });
      expect(stdout, command[0]).toBe('');
      expect(stderr.split('\n'), command[0]).toEqual(expected);
      expect(code, command[0]).toBe(2);
    }
  });

  it('shows a YAML syntax error as one line with its location and none of the values, with exit code 2', async () => {
    const file = await configFile('validate-yaml', [
      'service:',
      '  baseUrl: https://bot:hunter2-in-url@docs.example.com/v1?token=tok-in-query',
      // The yaml library's own messages would quote this line's words.
      '  token: >plain-token-value tok-in-query',
      'redis:',
      '  url: redis://:redis-pass-value@127.0.0.1:6379',
      'hooks:',
      '  secret: hook-secret-value-1234',
      '',
    ]);
    const { code, stdout, stderr } = await runCli(['validate-config', file], { env: cliEnv() });
    expect(stdout).toBe('');
    const lines = stderr.trim().split('\n');
    expect(lines).toEqual([
      `${file}: invalid configuration, 1 problem(s):`,
      `  (document): YAML: unexpected characters here: check the quotes, brackets, - and : of this line (${file}:3:11)`,
    ]);
    for (const secret of [
      'hunter2-in-url',
      'tok-in-query',
      'plain-token-value',
      'redis-pass-value',
      'hook-secret-value-1234',
      'docs.example.com',
    ])
      expect(stderr).not.toContain(secret);
    expect(code).toBe(2);
  });
});
