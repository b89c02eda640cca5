// What a CI log shows of `docsync once`: each warning once (in the report; its log line only with
// --log-level info), and a refusal as one plain line on stderr, its stack only with --log-level debug.
import { readFile, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { createTestRepo } from '../../support/git-repos.js';
import { onceConfig } from '../../support/once-config.js';
import { createTestSpace, startTestEmulator } from '../../support/start-test-emulator.js';

const WARNED = {
  'docs/README.md': '# CI docs\n',
  'docs/setup.md': '# Setup\n',
  'docs/SUMMARY.md': [
    '# Summary',
    '* [CI docs](README.md)',
    '* [Setup](setup.md)',
    '* [Setup again](setup.md)',
    '* [Gone](gone.md)',
    '',
  ].join('\n'),
};

/** Text of each warning the folder above gives, as the report prints it and the log line's `detail`. */
const WARNING_TEXTS = ['setup.md is already listed on line 3', 'gone.md is not in the docs folder'];

function occurrences(text: string, part: string): number {
  return text.split(part).length - 1;
}

describe('docsync once output', async () => {
  const emulator = await startTestEmulator();

  async function setUp(mappingOptions = '') {
    const space = await createTestSpace(emulator, 'CI output');
    const repo = await createTestRepo();
    await repo.commit(WARNED, 'Docs with two summary mistakes');
    await repo.push();
    const mappings = `  - { name: ci-docs, space: ${space}, git: { repo: ${repo.remote}, branch: main, dir: docs }${mappingOptions} }\n`;
    return onceConfig({ emulator, space, repo, mapping: 'ci-docs', dir: 'docs', mappings });
  }

  it('prints each warning once at the default log level, and its log line too with --log-level info', async () => {
    const { once } = await setUp();
    const run = await once();
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('warnings: 2\n');
    for (const text of WARNING_TEXTS) expect(occurrences(`${run.stdout}${run.stderr}`, text)).toBe(1);
    expect(run.stderr).toBe('');

    const verbose = await once('--log-level', 'info');
    expect(verbose.code).toBe(0);
    const logged = verbose.stderr
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.msg === 'docs folder warning');
    expect(logged.map(({ level, code }) => ({ level, code }))).toEqual([
      { level: 'info', code: 'SUMMARY_DUPLICATE' },
      { level: 'info', code: 'SUMMARY_MISSING_FILE' },
    ]);
    for (const text of WARNING_TEXTS) expect(occurrences(verbose.stdout, text)).toBe(1);
  });

  it('prints a refused folder as one plain line on stderr, exit 1, and its stack only with --log-level debug', async () => {
    const { once } = await setUp(', import: { limits: { maxFiles: 1 } }');
    const text = await once();
    expect(text.code).toBe(1);
    expect(text.stdout).toBe('');
    expect(text.stderr).toMatch(
      /^docsync once: ci-docs: the docs root has 3 files to import, over the limit of 1 per import; .*raise import\.limits\.maxFiles of the mapping.* \(ARCHIVE_TOO_MANY_ENTRIES\)\n$/,
    );

    // A report format prints the refusal too, and stderr still holds the one line.
    const junit = await once('--format', 'junit');
    expect(junit.code).toBe(1);
    expect(junit.stdout).toContain('<error type="ARCHIVE_TOO_MANY_ENTRIES"');
    expect(junit.stderr).toBe(text.stderr);

    const info = await once('--log-level', 'info');
    expect(info.code).toBe(1);
    const failed = info.stderr
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((line) => line.msg === 'import failed');
    expect(failed).toMatchObject({ level: 'info', code: 'ARCHIVE_TOO_MANY_ENTRIES' });
    expect(failed).not.toHaveProperty('err');
    expect(info.stderr).not.toContain('    at ');

    const debug = await once('--log-level', 'debug');
    expect(debug.code).toBe(1);
    expect(debug.stderr).toContain('"stack":"ContentError: the docs root has 3 files');
  });

  it('prints a service refusal as one line with what to check, and the JSON report on stdout', async () => {
    const { config, once } = await setUp();
    await writeFile(
      config,
      (await readFile(config, 'utf8')).replace(`token: ${emulator.tokens.admin}`, 'token: not-a-valid-token'),
    );
    const run = await once('--json');
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ result: 'failed', error: { code: 'API_HTTP_ERROR' } });
    expect(run.stderr).not.toContain('{"level"');
    expect(run.stderr).not.toContain('    at ');
    expect(run.stderr.split('\n')).toEqual([
      expect.stringMatching(
        /^docsync once: ci-docs: .*401.* \(API_HTTP_ERROR\); hint: the service refused the token: check service\.token/,
      ),
      '',
    ]);
    expect(`${run.stdout}${run.stderr}`).not.toContain('not-a-valid-token');
  });
});
