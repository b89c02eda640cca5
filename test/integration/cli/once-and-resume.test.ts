import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/load-config.js';
import { Queues } from '../../../src/queue/queues.js';
import { RedisMappingStateStore } from '../../../src/state/redis-mapping-state-store.js';
import { RedisVersionStateStore } from '../../../src/versions/redis-version-state-store.js';
import { MARKER_FIELD } from '../../../src/versions/version-targets.js';
import { cliEnv, runCli } from '../../support/cli-process.js';
import { createTestRepo } from '../../support/git-repos.js';
import { onceConfig } from '../../support/once-config.js';
import { callApi, createTestSpace, startTestEmulator } from '../../support/start-test-emulator.js';
import { testApiClient } from '../../support/test-api-client.js';
import { captureLog, redisUrl, tempDir, testRedis, uniquePrefix } from '../../support/test-context.js';

describe('docsync once', async () => {
  const emulator = await startTestEmulator();

  async function setUp() {
    const space = await createTestSpace(emulator, 'CI');
    const repo = await createTestRepo();
    await repo.commit(
      {
        'docs/README.md': '# CI docs\n\nSee [setup](setup.md) and [gone](gone.md).\n',
        'docs/setup.md': '# Setup\n',
      },
      'Docs for CI',
    );
    await repo.push();
    const { config } = await onceConfig({ emulator, space, repo, mapping: 'ci-docs', dir: 'docs' });
    return { space, repo, config };
  }

  it('imports the checked-out revision into a change request and prints it with its broken links', async () => {
    const { space, repo, config } = await setUp();
    const sha = await repo.git('rev-parse', 'HEAD');
    const run = await runCli(['once', '--config', config, '--ref', 'HEAD', '--json'], {
      cwd: repo.work,
      env: cliEnv(),
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as {
      result: string;
      sha: string;
      changeRequest: { id: string; number: number };
      revision: string;
      brokenLinks: Array<{ target: string }>;
    };
    expect(result).toMatchObject({ result: 'imported', sha, changeRequest: { number: 1 } });
    expect(result.brokenLinks.map((link) => link.target)).toEqual(['gone.md']);
    const cr = (
      await callApi<{ revision: string }>(
        `${emulator.baseUrl}/spaces/${space}/change-requests/${result.changeRequest.id}`,
        emulator.tokens.admin,
      )
    ).body;
    expect(cr.revision).toBe(result.revision);
  });

  it('imports one branch of a branches mapping, its space found by the marker docsync wrote', async () => {
    const { client } = testApiClient(emulator);
    const collection = await client.collections.create(emulator.orgId, { title: 'Handbook' });
    const space = await client.spaces.create(emulator.orgId, { title: 'Handbook v2' });
    await client.spaces.move(space.id, collection.id);
    const other = await client.spaces.create(emulator.orgId, { title: 'Handbook v1' });
    await client.spaces.move(other.id, collection.id);
    await client.customFields.create(emulator.orgId, {
      name: MARKER_FIELD,
      type: 'text',
      title: 'docsync version',
    });
    await client.customFields.setValues(other.id, { [MARKER_FIELD]: 'handbook/release/v1' });
    await client.customFields.setValues(space.id, { [MARKER_FIELD]: 'handbook/release/v2' });
    const repo = await createTestRepo('release/v2');
    await repo.commit({ 'docs/README.md': '# Handbook v2\n' }, 'Docs of v2');
    await repo.push();
    const { once: onceRun } = await onceConfig({
      emulator,
      space: space.id,
      repo,
      mapping: 'handbook',
      dir: 'docs',
      mappings: `  - name: handbook
    git: { repo: ${repo.remote}, branches: ["release/*"], dir: docs }
    spaces: { title: "Handbook {version}", collection: Handbook, org: ${emulator.orgId} }
`,
    });
    const once = (mapping: string) => onceRun('--mapping', mapping, '--json');

    const run = await once('handbook@release/v2');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as { result: string; changeRequest: { id: string } };
    expect(result.result).toBe('imported');
    const listed = await callApi<{ items: Array<{ id: string }> }>(
      `${emulator.baseUrl}/spaces/${space.id}/change-requests`,
      emulator.tokens.admin,
    );
    expect(listed.body.items.map((cr) => cr.id)).toEqual([result.changeRequest.id]);

    const missing = await once('handbook@release/v3');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(
      'docsync once: handbook@release/v3: no space of collection Handbook is marked as handbook/release/v3: docsync makes it at the next git poll of handbook (or on a push webhook); run the daemon first\n',
    );
  });

  it('exits 3 with --fail-on-broken-links, and finds its change request again by the subject marker', async () => {
    const { space, repo, config } = await setUp();
    const first = await runCli(['once', '--config', config], { cwd: repo.work, env: cliEnv() });
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(
      /^ci-docs: imported [0-9a-f]{12}\nchange request #1 http.*\nrevision rev_\w+\nbroken links: 1\n {2}readme: gone\.md \(docs\/README\.md:3:27\)\n$/,
    );
    const second = await runCli(['once', '--config', config, '--fail-on-broken-links'], {
      cwd: repo.work,
      env: cliEnv(),
    });
    expect(second.code).toBe(3);
    expect(second.stdout).toContain('change request #1 ');
    const crs = (
      await callApi<{ items: unknown[] }>(
        `${emulator.baseUrl}/spaces/${space}/change-requests`,
        emulator.tokens.admin,
      )
    ).body.items;
    expect(crs).toHaveLength(1);
  });

  it('imports a folder whose summary has a duplicate entry and a missing file, and prints the warnings', async () => {
    const { repo, config } = await setUp();
    await repo.commit(
      {
        'docs/SUMMARY.md': [
          '# Summary',
          '* [CI docs](README.md)',
          '* [Setup](setup.md)',
          '* [Setup again](setup.md)',
          '* [Gone](gone.md)',
          '',
        ].join('\n'),
      },
      'Add a summary with mistakes',
    );
    await repo.push();
    const text = await runCli(['once', '--config', config], { cwd: repo.work, env: cliEnv() });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      /^ci-docs: imported [0-9a-f]{12}\nchange request #1 http.*\nrevision rev_\w+\nwarnings: 2\n {2}SUMMARY\.md:4: setup\.md is already listed on line 3.* \(SUMMARY_DUPLICATE\)\n {2}SUMMARY\.md:5: gone\.md is not in the docs folder.* \(SUMMARY_MISSING_FILE\)\nbroken links: 1\n/,
    );
    const json = await runCli(['once', '--config', config, '--json', '--dry-run'], {
      cwd: repo.work,
      env: cliEnv(),
    });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      result: 'dry-run',
      warnings: [
        { code: 'SUMMARY_DUPLICATE', file: 'SUMMARY.md', line: 4 },
        { code: 'SUMMARY_MISSING_FILE', file: 'SUMMARY.md', line: 5 },
      ],
    });
  });

  it('exits 1 with the reason when the service refuses, and 2 on bad usage', async () => {
    const { repo, config } = await setUp();
    const broken = config.replace('docsync.yaml', 'bad-token.yaml');
    await writeFile(
      broken,
      (await readFile(config, 'utf8')).replace(`token: ${emulator.tokens.admin}`, 'token: not-a-valid-token'),
    );
    const refused = await runCli(['once', '--config', broken, '--json'], { cwd: repo.work, env: cliEnv() });
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toMatchObject({ result: 'failed', error: { code: 'API_HTTP_ERROR' } });
    expect(refused.stdout).not.toContain('not-a-valid-token');
    const usage = await runCli(['once', '--config', config, '--ref', 'HEAD', '--worktree'], {
      cwd: repo.work,
      env: cliEnv(),
    });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toBe('docsync once: give either --ref or --worktree, not both\n');
  });
});

describe('docsync resume', () => {
  it('lifts a pause and polls the mapping at once', async () => {
    const prefix = uniquePrefix('resume');
    const redis = testRedis(prefix);
    const dir = await tempDir('resume');
    const yaml = `dataDir: ${join(dir, 'data')}
redis: { url: "${redisUrl()}", prefix: ${prefix} }
service: { baseUrl: "http://127.0.0.1:9/v1", token: unused-token }
mappings:
  - { name: docs, space: s1, git: { repo: /nowhere, branch: main, dir: docs } }
`;
    await writeFile(join(dir, 'docsync.yaml'), yaml);
    const state = new RedisMappingStateStore(redis, prefix);
    await state.update('docs', {
      paused: {
        reason: 'force-push',
        detail: 'the branch no longer contains abc',
        at: new Date().toISOString(),
      },
    });
    const run = await runCli(['resume', 'docs', '--config', join(dir, 'docsync.yaml')], { env: cliEnv() });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('docs resumed (was paused: the branch no longer contains abc); polling it now\n');
    expect((await state.get('docs')).paused).toBeUndefined();
    const queues = new Queues(redis, parseConfig(yaml, 'test.yaml', {}), captureLog().log);
    const waiting = await queues.get('import').getWaiting();
    expect(waiting.map((job) => [job.name, job.data])).toEqual([['poll-git', { mapping: 'docs' }]]);
    await queues.close();
    const unknown = await runCli(['resume', 'nope', '--config', join(dir, 'docsync.yaml')], {
      env: cliEnv(),
    });
    expect(unknown.code).toBe(2);
  });

  it('takes one branch of a branches mapping as <mapping>@<branch>, once docsync has made its space', async () => {
    const prefix = uniquePrefix('resume-branch');
    const redis = testRedis(prefix);
    const dir = await tempDir('resume-branch');
    const file = join(dir, 'docsync.yaml');
    await writeFile(
      file,
      `dataDir: ${join(dir, 'data')}
redis: { url: "${redisUrl()}", prefix: ${prefix} }
service: { baseUrl: "http://127.0.0.1:9/v1", token: unused-token }
mappings:
  - name: handbook
    git: { repo: /nowhere, branches: ["release/*"], dir: docs }
    spaces: { title: "Handbook {version}", org: org_1 }
`,
    );
    const resume = (name: string) => runCli(['resume', name, '--config', file], { env: cliEnv() });

    const before = await resume('handbook@release/v2');
    expect(before.code).toBe(2);
    expect(before.stderr).toBe(
      'docsync resume: handbook@release/v2: docsync has no space for this branch of handbook (it makes one at the next git poll of a branch that matches git.branches)\n',
    );

    await new RedisVersionStateStore(redis, prefix).set('handbook', {
      branches: { 'release/v2': { space: 'spc_v2', created: true } },
    });
    const state = new RedisMappingStateStore(redis, prefix);
    await state.update('handbook@release/v2', {
      paused: {
        reason: 'force-push',
        detail: 'the branch no longer contains abc',
        at: new Date().toISOString(),
      },
    });
    const run = await resume('handbook@release/v2');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      'handbook@release/v2 resumed (was paused: the branch no longer contains abc); polling it now\n',
    );
    expect((await state.get('handbook@release/v2')).paused).toBeUndefined();

    const other = await resume('handbook@release/v3');
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(
      /handbook@release\/v3: docsync has no space .*; known: handbook@release\/v2\n$/,
    );
    const unknown = await resume('guide@main');
    expect(unknown.stderr).toBe(`docsync resume: no mapping named guide@main in ${file}\n`);
  });
});
