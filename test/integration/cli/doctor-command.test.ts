// `docsync doctor` as users run it (the built CLI as a child process) against real things: the
// test run's private Redis, the local service over HTTP, git repositories with bare remotes on
// disk, local files. Each broken thing gives a ✗ line naming what to change, and the exit code.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findFreePort } from '../../../src/net/find-free-port.js';
import { cliEnv, runCli } from '../../support/cli-process.js';
import { createTestRepo } from '../../support/git-repos.js';
import { createTestSpace, startTestEmulator, type TestEmulator } from '../../support/start-test-emulator.js';
import { redisUrl, tempDir } from '../../support/test-context.js';

const VALID_SPEC = 'openapi: 3.1.0\ninfo:\n  title: Pets\n  version: 1.0.0\npaths: {}\n';
/** `info.version` is required. */
const INVALID_SPEC = 'openapi: 3.1.0\ninfo:\n  title: Pets\npaths: {}\n';

interface Setup {
  dir: string;
  emulator: TestEmulator;
  space: string;
  remote: string;
  work: string;
  specFile: string;
}

async function setUp(): Promise<Setup> {
  const dir = await tempDir('doctor');
  const emulator = await startTestEmulator();
  const space = await createTestSpace(emulator);
  const repo = await createTestRepo('main');
  await repo.commit({ 'docs/README.md': '# Docs\n', 'api/openapi.yaml': VALID_SPEC }, 'docs');
  await repo.push();
  const specFile = join(dir, 'openapi.yaml');
  await writeFile(specFile, VALID_SPEC);
  return { dir, emulator, space, remote: repo.remote, work: repo.work, specFile };
}

interface ConfigParts {
  redis?: string;
  space?: string;
  repo?: string;
  branch?: string;
  watch?: string;
}

/** A configuration whose token and Redis address come from variables, as in production. */
async function writeConfig(setup: Setup, parts: ConfigParts = {}): Promise<string> {
  const file = join(setup.dir, 'docsync.yaml');
  await writeFile(
    file,
    [
      `dataDir: ${join(setup.dir, 'data')}`,
      ...(parts.redis === undefined ? [] : ['redis:', `  url: ${parts.redis}`]),
      'service:',
      `  baseUrl: ${setup.emulator.baseUrl}`,
      '  token: ${DOCSYNC_TOKEN}',
      'mappings:',
      '  - name: docs',
      `    space: ${parts.space ?? setup.space}`,
      '    git:',
      `      repo: ${parts.repo ?? setup.remote}`,
      `      branch: ${parts.branch ?? 'main'}`,
      '      dir: docs',
      '      watch:',
      `        path: ${parts.watch ?? setup.work}`,
      'openapi:',
      `  - org: ${setup.emulator.orgId}`,
      '    slug: pets',
      `    source: { file: ${setup.specFile} }`,
      '    every: 1h',
      `  - org: ${setup.emulator.orgId}`,
      '    slug: pets-from-git',
      '    source: { mapping: docs, path: api/openapi.yaml }',
      '    every: 1h',
      '',
    ].join('\n'),
  );
  return file;
}

function doctor(
  file: string,
  token: string,
  extra: readonly string[] = [],
  env: Record<string, string> = {},
) {
  return runCli(['doctor', '--config', file, ...extra], {
    env: cliEnv({ DOCSYNC_TOKEN: token, TEST_REDIS_URL: redisUrl(), ...env }),
  });
}

/** The line of one check: `✗ service: ...`. */
function lineOf(stdout: string, label: string): string {
  const line = stdout.split('\n').find((text) => text.slice(2).startsWith(`${label}:`));
  if (line === undefined) throw new Error(`no line for ${label} in:\n${stdout}`);
  return line;
}

describe('docsync doctor', () => {
  it('passes every check of a working setup, in a stable order, with exit code 0', async () => {
    const setup = await setUp();
    const file = await writeConfig(setup, { redis: '${TEST_REDIS_URL}' });
    const { code, stdout, stderr } = await doctor(file, setup.emulator.tokens.admin);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const labels = stdout
      .trim()
      .split('\n')
      .filter((line) => /^[✓✗!-] /.test(line))
      .map((line) => `${line.slice(0, 1)} ${line.slice(2, line.indexOf(':'))}`);
    expect(labels).toEqual([
      '✓ config',
      '✓ redis',
      '✓ redis-version',
      '✓ redis-memory-policy',
      '✓ service',
      '✓ space docs',
      '✓ repository docs',
      '✓ watch-path docs',
      `✓ openapi ${setup.emulator.orgId}/pets`,
      `✓ openapi ${setup.emulator.orgId}/pets-from-git`,
    ]);
    expect(lineOf(stdout, 'space docs')).toContain('the token may edit');
    expect(lineOf(stdout, 'repository docs')).toMatch(/branch main at [0-9a-f]{12}/);
    expect(lineOf(stdout, `openapi ${setup.emulator.orgId}/pets`)).toContain('a valid OpenAPI 3.1 document');
    expect(lineOf(stdout, `openapi ${setup.emulator.orgId}/pets-from-git`)).toContain(
      'api/openapi.yaml (mapping docs): a valid OpenAPI 3.1 document',
    );
    expect(stdout.trim().split('\n').at(-1)).toBe('10 passed');
    // The mirror made to read the repository's spec is gone.
    expect((await readdir(tmpdir())).filter((name) => name.startsWith('docsync-doctor-mirrors-'))).toEqual(
      [],
    );
    expect(stdout).not.toContain(setup.emulator.tokens.admin);
  });

  it('names the token variable when the service refuses the token, skips the spaces, and exits 1', async () => {
    const setup = await setUp();
    const file = await writeConfig(setup, { redis: '${TEST_REDIS_URL}' });
    const wrong = 'wrong-token-1234567890';
    const { code, stdout } = await doctor(file, wrong);
    expect(code).toBe(1);
    const service = lineOf(stdout, 'service');
    expect(service).toMatch(/^✗ service: .* refused the token \(401/);
    expect(service).toContain('→ set DOCSYNC_TOKEN (service.token) to a valid API token of the service');
    expect(lineOf(stdout, 'space docs')).toBe('- space docs: not checked: the service check failed');
    // The checks that do not need the service still ran.
    expect(lineOf(stdout, 'repository docs')).toMatch(/^✓ /);
    expect(stdout).not.toContain(wrong);

    const json = await doctor(file, wrong, ['--json']);
    expect(json.code).toBe(1);
    const answer = JSON.parse(json.stdout) as {
      ok: boolean;
      summary: Record<string, number>;
      checks: Array<{ check: string; status: string; code?: string; hint?: string }>;
    };
    expect(answer.ok).toBe(false);
    expect(answer.summary).toMatchObject({ fail: 1, skip: 1 });
    expect(answer.checks.find((check) => check.check === 'service')).toMatchObject({
      status: 'fail',
      code: 'SERVICE_TOKEN_REFUSED',
    });
    expect(json.stdout).not.toContain(wrong);
  });

  it("names the mapping's space when the space does not exist", async () => {
    const setup = await setUp();
    const file = await writeConfig(setup, { redis: '${TEST_REDIS_URL}', space: 'space_missing' });
    const { code, stdout } = await doctor(file, setup.emulator.tokens.admin);
    expect(code).toBe(1);
    const line = lineOf(stdout, 'space docs');
    expect(line).toMatch(
      /^✗ space docs: space space_missing does not exist, or the token cannot see it \(404/,
    );
    expect(line).toContain('→ check mappings[0].space of mapping docs');
    expect(lineOf(stdout, 'service')).toMatch(/^✓ /);
  });

  it('says when the token may not edit the space', async () => {
    const setup = await setUp();
    const file = await writeConfig(setup, { redis: '${TEST_REDIS_URL}' });
    const { code, stdout } = await doctor(file, setup.emulator.tokens.reader);
    expect(code).toBe(1);
    const line = lineOf(stdout, 'space docs');
    expect(line).toMatch(/^✗ space docs: the token may not edit in "Docs"/);
    expect(line).toContain(
      '→ give the member behind DOCSYNC_TOKEN (service.token) the edit role or stronger',
    );
  });

  it('lists the branches there are when the branch is missing', async () => {
    const setup = await setUp();
    const file = await writeConfig(setup, { redis: '${TEST_REDIS_URL}', branch: 'docs-v2' });
    const { code, stdout } = await doctor(file, setup.emulator.tokens.admin);
    expect(code).toBe(1);
    const line = lineOf(stdout, 'repository docs');
    expect(line).toContain(`✗ repository docs: ${setup.remote} has no branch docs-v2 (its branches: main)`);
    expect(line).toContain('→ check mappings[0].git.branch of mapping docs, or push the branch');
  });

  it("shows git's whole error text, without the credentials of the URL", async () => {
    const setup = await setUp();
    const missing = join(setup.dir, 'missing.git');
    const file = await writeConfig(setup, { redis: '${TEST_REDIS_URL}', repo: missing });
    const { code, stdout } = await doctor(file, setup.emulator.tokens.admin);
    expect(code).toBe(1);
    expect(lineOf(stdout, 'repository docs')).toContain(
      `✗ repository docs: git ls-remote ${missing} failed (exit 128)`,
    );
    // Every line git wrote, not only its last.
    expect(stdout).toContain(`    fatal: '${missing}' does not appear to be a git repository`);
    expect(stdout).toContain('    and the repository exists.');

    const port = await findFreePort();
    const withCredentials = `http://docsync:s3cret-pass@127.0.0.1:${port}/docs.git`;
    const secretFile = await writeConfig(setup, { redis: '${TEST_REDIS_URL}', repo: withCredentials });
    const secret = await doctor(secretFile, setup.emulator.tokens.admin);
    expect(secret.code).toBe(1);
    expect(lineOf(secret.stdout, 'repository docs')).toMatch(
      /^✗ repository docs: git ls-remote http:\/\/\*\*\*@127/,
    );
    expect(secret.stdout).not.toContain('s3cret-pass');
  });

  it('says which watch path is missing', async () => {
    const setup = await setUp();
    const gone = join(setup.dir, 'no-such-clone');
    const file = await writeConfig(setup, { redis: '${TEST_REDIS_URL}', watch: gone });
    const { code, stdout } = await doctor(file, setup.emulator.tokens.admin);
    expect(code).toBe(1);
    const line = lineOf(stdout, 'watch-path docs');
    expect(line).toContain(`✗ watch-path docs: ${gone} does not exist`);
    expect(line).toContain('→ check mappings[0].git.watch.path of mapping docs');

    // The clone is there, but not the docs folder in it.
    const empty = join(setup.dir, 'empty-clone');
    await mkdir(empty);
    const second = await doctor(
      await writeConfig(setup, { redis: '${TEST_REDIS_URL}', watch: empty }),
      setup.emulator.tokens.admin,
    );
    expect(lineOf(second.stdout, 'watch-path docs')).toContain(
      `✗ watch-path docs: ${empty} has no folder docs (git.dir)`,
    );
  });

  it('lists the problems of an invalid OpenAPI document by JSON pointer', async () => {
    const setup = await setUp();
    await writeFile(setup.specFile, INVALID_SPEC);
    const file = await writeConfig(setup, { redis: '${TEST_REDIS_URL}' });
    const { code, stdout } = await doctor(file, setup.emulator.tokens.admin);
    expect(code).toBe(1);
    const line = lineOf(stdout, `openapi ${setup.emulator.orgId}/pets`);
    expect(line).toContain(
      `✗ openapi ${setup.emulator.orgId}/pets: ${setup.specFile} is not a valid OpenAPI document`,
    );
    expect(line).toContain('→ fix the document where each problem points');
    expect(stdout).toMatch(/\n {4}#\/info .*version/);
  });

  it("names the spec's maxRefFiles when its $refs name more files than it allows", async () => {
    const setup = await setUp();
    await writeFile(
      setup.specFile,
      `${VALID_SPEC.replace('paths: {}', 'paths:\n  /pets: { $ref: pets-path.yaml }')}`,
    );
    await writeFile(
      join(setup.dir, 'pets-path.yaml'),
      "get: { responses: { '200': { description: ok } } }\n",
    );
    const file = await writeConfig(setup, { redis: '${TEST_REDIS_URL}' });
    const text = await readFile(file, 'utf8');
    await writeFile(
      file,
      text.replace(`    source: { file: ${setup.specFile} }\n`, (line) => `${line}    maxRefFiles: 0\n`),
    );
    const { code, stdout } = await doctor(file, setup.emulator.tokens.admin);
    expect(code).toBe(1);
    const line = lineOf(stdout, `openapi ${setup.emulator.orgId}/pets`);
    expect(line).toContain('its $refs name more than 0 files');
    expect(line).toContain('→ raise openapi[0].maxRefFiles, or make the document name fewer files');
  });

  it('exits 2 on an invalid configuration, listing every problem', async () => {
    const setup = await setUp();
    const file = join(setup.dir, 'broken.yaml');
    await writeFile(
      file,
      'queues:\n  attempts: many\nmappings:\n  - name: docs\n    space: s\n    git: { repo: x }\n',
    );
    const { code, stdout } = await doctor(file, setup.emulator.tokens.admin);
    expect(code).toBe(2);
    const lines = stdout.split('\n');
    expect(lines[0]).toMatch(/^✗ config: .*broken\.yaml is not a valid configuration \(\d+ problem\(s\)\)/);
    expect(stdout).toMatch(/\n {4}queues\.attempts: /);
    expect(stdout).toMatch(/\n {4}mappings\[0\]\.git\.branch: /);
    expect(stdout).not.toContain('✓');
  });

  it('exits 2 on bad usage', async () => {
    const none = await runCli(['doctor'], { env: cliEnv() });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('docsync doctor: name the configuration with --config <file>');
    const setup = await setUp();
    const file = await writeConfig(setup);
    const timeout = await doctor(file, setup.emulator.tokens.admin, ['--timeout', 'soon']);
    expect(timeout.code).toBe(2);
    expect(timeout.stderr).toContain('--timeout soon is not a duration');
  });
});

describe('docsync doctor and Redis', () => {
  it('fails when the configured Redis does not answer, and names the variable it comes from', async () => {
    const setup = await setUp();
    const port = await findFreePort();
    const file = await writeConfig(setup, { redis: '${REDIS_URL}' });
    const { code, stdout } = await doctor(file, setup.emulator.tokens.admin, ['--timeout', '2s'], {
      REDIS_URL: `redis://:hunter2-secret@127.0.0.1:${port}`,
    });
    expect(code).toBe(1);
    const line = lineOf(stdout, 'redis');
    expect(line).toContain(`✗ redis: redis://***@127.0.0.1:${port} did not answer`);
    expect(line).toContain('→ check REDIS_URL (redis.url) and that Redis runs there');
    expect(lineOf(stdout, 'redis-version')).toBe('- redis-version: not checked: Redis did not answer');
    expect(stdout).not.toContain('hunter2-secret');
  });

  it('says when Redis refuses the password, and warns, without failing, when maxmemory-policy can evict jobs', async () => {
    const { spawn } = await import('node:child_process');
    const setup = await setUp();
    const port = await findFreePort();
    const server = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--requirepass',
        'right-pass-123',
        '--maxmemory-policy',
        'allkeys-lru',
      ],
      { stdio: 'ignore' },
    );
    const exited = new Promise((resolve) => server.once('exit', resolve));
    try {
      // redis-server takes a moment to listen: doctor waits for it within its time limit.
      const wrong = await doctor(
        await writeConfig(setup, { redis: `redis://:wrong-pass-456@127.0.0.1:${port}` }),
        setup.emulator.tokens.admin,
      );
      expect(wrong.code).toBe(1);
      const refused = lineOf(wrong.stdout, 'redis');
      expect(refused).toMatch(
        /^✗ redis: redis:\/\/\*\*\*@127\.0\.0\.1:\d+ refused the credentials \(WRONGPASS/,
      );
      expect(refused).toContain('→ check the user and password in redis.url');
      expect(wrong.stdout).not.toContain('wrong-pass-456');

      const file = await writeConfig(setup, { redis: `redis://:right-pass-123@127.0.0.1:${port}` });
      const { code, stdout } = await doctor(file, setup.emulator.tokens.admin);
      expect(code).toBe(0);
      const line = lineOf(stdout, 'redis-memory-policy');
      expect(line).toMatch(
        /^! redis-memory-policy: maxmemory-policy is allkeys-lru: .* may evict queued jobs/,
      );
      expect(line).toContain('→ set maxmemory-policy noeviction');
      expect(stdout.trim().split('\n').at(-1)).toBe('9 passed, 1 warning(s)');
      expect(stdout).not.toContain('right-pass-123');
    } finally {
      server.kill('SIGKILL');
      await exited;
    }
  });

  it('checks that redis-server is on PATH when docsync would start its own', async () => {
    const setup = await setUp();
    const file = await writeConfig(setup);
    const found = await doctor(file, setup.emulator.tokens.admin);
    expect(lineOf(found.stdout, 'redis')).toMatch(
      /^✓ redis: no redis\.url is set: docsync start runs its own redis-server, found on PATH/,
    );
    expect(lineOf(found.stdout, 'redis-version')).toMatch(/^✓ redis-version: Redis \d+\.\d+/);

    const bare = join(setup.dir, 'empty-path');
    await mkdir(bare);
    const configOnly = join(setup.dir, 'redis-only.yaml');
    await writeFile(configOnly, `dataDir: ${join(setup.dir, 'data')}\n`);
    const missing = await runCli(['doctor', '--config', configOnly], { env: cliEnv({ PATH: bare }) });
    expect(missing.code).toBe(1);
    const line = lineOf(missing.stdout, 'redis');
    expect(line).toMatch(
      /^✗ redis: no redis\.url is set, so docsync start runs its own redis-server, and there is none on PATH/,
    );
    expect(line).toContain('→ redis-server was not found on PATH: install it');
  });
});
