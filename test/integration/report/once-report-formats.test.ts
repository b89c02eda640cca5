// `docsync once --format ...` against the local service: a commit with broken links written as
// inline links, a reference definition and a figure's <img>, and look-alikes in code that are not
// links. Every format is read back the way CI reads it (JUnit and SARIF checked against their
// schemas) and must name each broken link's page, file, line and target.
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { PACKAGE_ROOT } from '../../../src/package-info.js';
import { cliEnv, runCli } from '../../support/cli-process.js';
import { createTestRepo } from '../../support/git-repos.js';
import { onceConfig } from '../../support/once-config.js';
import { createTestSpace, startTestEmulator } from '../../support/start-test-emulator.js';
import {
  readAnnotations,
  readJunit,
  readMarkdownTables,
  readSarif,
} from '../../unit/report/report-schemas.js';

const README = [
  '# Handbook', // 1
  '', // 2
  'Start with [setup](setup.md), then [the old guide](old-guide.md).', // 3
  '', // 4
  'Code is not a link: `[x](nowhere.md)`.', // 5
  '', // 6
  '<figure><img src=".gitbook/assets/missing.png" alt=""><figcaption></figcaption></figure>', // 7
  '', // 8
  'See [the FAQ][faq].', // 9
  '', // 10
  '[faq]: faq.md', // 11
  '',
].join('\n');

describe('docsync once --format', async () => {
  const emulator = await startTestEmulator();

  async function setUp() {
    const space = await createTestSpace(emulator, 'Reports');
    const repo = await createTestRepo();
    await repo.commit(
      {
        'handbook/README.md': README,
        'handbook/setup.md': '# Setup\n\nBack to [the start](README.md) and [old](old-guide.md).\n',
      },
      'Handbook',
    );
    const { dir, once } = await onceConfig({ emulator, space, repo, mapping: 'handbook', dir: 'handbook' });
    return { repo, dir, once };
  }

  // Where each broken link is written, as `file:line:column`.
  const expected = [
    ['readme', 'handbook/README.md', 3, 36, 'old-guide.md'],
    ['readme', 'handbook/README.md', 7, 19, '.gitbook/assets/missing.png'],
    ['readme', 'handbook/README.md', 11, 1, 'faq.md'],
    ['setup', 'handbook/setup.md', 3, 36, 'old-guide.md'],
  ] as const;

  it('prints JUnit with a test case per page and a failure per broken link, and SARIF with each line', async () => {
    const { once } = await setUp();
    const junit = await once('--format', 'junit', '--fail-on-broken-links');
    expect(junit.stderr).toBe('');
    expect(junit.code).toBe(3);
    const [suite] = readJunit(junit.stdout);
    expect(suite).toMatchObject({ '@_tests': '2', '@_failures': '2', '@_errors': '0' });
    const failures = (suite?.testcase ?? []).flatMap((testCase) =>
      (testCase.failure ?? []).map((failure) => [testCase['@_name'], failure['@_message']]),
    );
    expect(failures).toEqual(
      expected.map(([page, file, line, column, target]) => [
        `${page} (${file})`,
        `broken link to ${target} (${file}:${line}:${column})`,
      ]),
    );

    // The same commit again: the change request is found by its marker and checked again.
    const sarif = await once('--format', 'sarif');
    expect(sarif.code).toBe(0);
    const results = readSarif(sarif.stdout).runs[0]?.results ?? [];
    expect(
      results.map((result) => {
        const physical = result.locations?.[0]?.physicalLocation;
        return [
          result.properties?.page,
          physical?.artifactLocation?.uri,
          physical?.region?.startLine,
          physical?.region?.startColumn,
          result.properties?.target,
        ];
      }),
    ).toEqual(expected.map((row) => [...row]));
  });

  it('prints GitHub annotations at each line, and writes the markdown summary to $GITHUB_STEP_SUMMARY', async () => {
    const { repo, dir, once } = await setUp();
    const summaryFile = join(dir, 'step-summary.md');
    await writeFile(summaryFile, '## Earlier step\n');
    const github = await runCli(
      ['once', '--config', join(dir, 'docsync.yaml'), '--ref', 'HEAD', '--format', 'github'],
      { cwd: repo.work, env: cliEnv({ GITHUB_STEP_SUMMARY: summaryFile }) },
    );
    expect(github.code).toBe(0);
    expect(
      readAnnotations(github.stdout).map(({ command, properties }) => [
        command,
        properties.file,
        Number(properties.line),
        Number(properties.col),
      ]),
    ).toEqual(expected.map(([, file, line, column]) => ['error', file, line, column]));

    const summary = await readFile(summaryFile, 'utf8');
    expect(summary.startsWith('## Earlier step\n### docsync: `handbook`\n')).toBe(true);
    const [table] = readMarkdownTables(summary);
    expect(table?.slice(1)).toEqual(
      expected.map(([page, file, line, column, target]) => [page, `${file}:${line}:${column}`, target]),
    );
    const markdown = await once('--format', 'markdown');
    expect(readMarkdownTables(markdown.stdout)).toEqual([table]);
  });

  it('places the links of a working copy from its files on disk, and refuses an unknown format', async () => {
    const { repo, dir } = await setUp();
    const run = await runCli(
      ['once', '--config', join(dir, 'docsync.yaml'), '--worktree', '--format', 'json'],
      { cwd: repo.work, env: cliEnv() },
    );
    expect(run.code).toBe(0);
    const json = JSON.parse(run.stdout) as { brokenLinks: Array<Record<string, unknown>> };
    expect(
      json.brokenLinks.map((link) => [link.pagePath, link.file, link.line, link.column, link.target]),
    ).toEqual(expected.map((row) => [...row]));
    const usage = await runCli(['once', '--config', join(dir, 'docsync.yaml'), '--format', 'xml'], {
      cwd: repo.work,
      env: cliEnv(),
    });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toBe(
      'docsync once: --format must be one of text, json, junit, sarif, github, markdown, not xml\n',
    );
  });

  it("runs as the composite action's step: inputs as flags, the report in the output file, exit 3 passed on", async () => {
    const { repo, dir } = await setUp();
    const action = parse(await readFile(join(PACKAGE_ROOT, 'action.yml'), 'utf8')) as {
      runs: { using: string; steps: Array<{ id?: string; run: string; env?: Record<string, string> }> };
    };
    expect(action.runs.using).toBe('composite');
    const step = action.runs.steps.find((candidate) => candidate.id === 'once');
    const report = join(dir, 'links.sarif');
    const outputs = join(dir, 'github-output');
    await writeFile(outputs, '');
    // The runner's part: each input's value in the variable the step's env names for it.
    const inputs: Record<string, string> = {
      config: join(dir, 'docsync.yaml'),
      mapping: 'handbook',
      ref: 'HEAD',
      format: 'sarif',
      output: report,
      'fail-on-broken-links': 'true',
      'public-url': '',
    };
    const env = Object.fromEntries(
      Object.entries(step?.env ?? {}).map(([name, value]) => [
        name,
        inputs[/^\$\{\{ inputs\.([\w-]+) \}\}$/.exec(value)?.[1] ?? ''] ?? '',
      ]),
    );
    const run = await promisify(execFile)('bash', ['-e', '-c', step?.run ?? 'exit 99'], {
      cwd: repo.work,
      env: cliEnv({ ...env, GITHUB_ACTION_PATH: PACKAGE_ROOT, GITHUB_OUTPUT: outputs }),
    }).then(
      () => 0,
      (error: { code?: number }) => error.code,
    );
    expect(run).toBe(3);
    expect(await readFile(outputs, 'utf8')).toBe('exit-code=3\n');
    expect(readSarif(await readFile(report, 'utf8')).runs[0]?.results).toHaveLength(expected.length);
  });
});
