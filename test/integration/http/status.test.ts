import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JOBS } from '../../../jobs/registry.js';
import { RedisMappingStateStore } from '../../../src/state/redis-mapping-state-store.js';
import { docsFixture } from '../../support/docs-fixture.js';
import { startTestDaemon } from '../../support/start-test-daemon.js';
import { callApi, createTestSpace } from '../../support/start-test-emulator.js';
import { testRedis, uniquePrefix } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';
import { docsDaemonYaml } from './docs-daemon-yaml.js';

interface LinkCheck {
  target: string;
  number?: number;
  at: string;
  revision: string;
  broken: number;
  total?: number;
  links: Array<Record<string, unknown>>;
}

interface MappingStatus {
  name: string;
  state?: string;
  paused?: { reason: string; detail: string };
  lastImport?: {
    result: string;
    sha?: string;
    changeRequest?: { id: string; number: number };
    revision?: string;
    warnings: Array<{ code: string; file: string; line?: number; message: string }>;
    warningCount: number;
  };
  lastError?: { code: string; message: string };
  lastMerge?: { at: string; changeRequest: { id: string; number: number }; revision: string };
  changeRequests: Array<{ changeRequest: string; number: number; mergeable: boolean; reasons: string[] }>;
  linkChecks: LinkCheck[];
  error?: string;
}

interface Status {
  mappings: MappingStatus[];
  openapi: Array<Record<string, unknown>>;
  queues: Record<string, Record<string, number>>;
  nextRuns: Array<{ queue: string; key: string; name: string; next: string; every?: number }>;
  failures: Array<{
    queue: string;
    name: string;
    id: string;
    failedReason: string;
    attemptsMade: number;
    at: string;
  }>;
  events: Array<{
    at: string;
    queue: string;
    job: string;
    result: string;
    summary: string;
    mapping?: string;
  }>;
}

describe('/status after a full cycle', () => {
  it('holds every mapping, change request verdict, link check, spec, queue, next run and failure', async () => {
    const fixture = await docsFixture('status');
    const { emulator, space, repo, dir } = fixture;
    const lostSpace = await createTestSpace(emulator, 'Lost');
    const prefix = uniquePrefix('status');
    const redis = testRedis(prefix);
    const daemon = await startTestDaemon({
      prefix,
      jobs: JOBS,
      yaml: docsDaemonYaml(fixture, {
        docs: [
          'changeRequest: { poll: 1s }',
          'merge: { enabled: true, approvals: 0, noBrokenLinks: true }',
          'links: { every: 1h }',
        ],
        mappings: `  - name: lost
    space: ${lostSpace}
    git: { repo: ${join(dir, 'no-such-repo.git')}, branch: main, poll: 1h }
`,
      }),
    });
    const status = async () => (await (await fetch(`${daemon.httpAddress}/status`)).json()) as Status;
    const mapping = (answer: Status, name: string) =>
      answer.mappings.find((entry) => entry.name === name) as MappingStatus;

    // The first import is merged (no approvals needed, its links checked), then the main content
    // is checked at the merged revision.
    const first = await waitFor(async () => mapping(await status(), 'docs').lastImport, 'the first import');
    const firstCr = first.changeRequest?.id as string;
    const merged = await waitFor(async () => {
      const cr = (
        await callApi<{ status: string; revisionMerged?: string }>(
          `${emulator.baseUrl}/spaces/${space}/change-requests/${firstCr}`,
          emulator.tokens.admin,
        )
      ).body;
      return cr.status === 'merged' ? cr.revisionMerged : undefined;
    }, 'the merge of the first change request');

    // The second is held back by a broken link; its SUMMARY.md lists a page that is not there.
    const second = await repo.commit(
      {
        'docs/install.md': '# Install\n\nSee [nowhere](nowhere.md).\n',
        'docs/SUMMARY.md':
          '# Summary\n\n* [Welcome](README.md)\n* [Install](install.md)\n* [Old page](old.md)\n',
      },
      'Broken',
    );
    await repo.push();
    const answer = await waitFor(async () => {
      const now = await status();
      const docs = mapping(now, 'docs');
      const ready =
        docs.lastImport?.sha === second &&
        docs.changeRequests.some((verdict) => verdict.reasons.includes('1 broken link')) &&
        docs.linkChecks.some((check) => check.target === 'main' && check.revision === merged) &&
        now.failures.some((failure) => failure.name === 'poll-git') &&
        now.openapi[0]?.version !== undefined;
      return ready ? now : undefined;
    }, 'the second import, its verdict, the link checks, the failure and the spec');

    const docs = mapping(answer, 'docs');
    const secondCr = docs.lastImport?.changeRequest as { id: string; number: number };
    expect(docs).toMatchObject({
      state: 'ok',
      lastImportedSha: second,
      changeRequest: secondCr.id,
      lastImport: { result: 'imported', source: 'git', sha: second, changeRequest: { number: 2 } },
    });
    expect(docs.lastImport?.revision).toMatch(/^rev_/);
    // What the import read past: the summary's line, in /status and in the change request's comment.
    expect(docs.lastImport?.warnings).toEqual([
      {
        code: 'SUMMARY_MISSING_FILE',
        file: 'SUMMARY.md',
        line: 5,
        message: expect.stringContaining('old.md'),
      },
    ]);
    expect(docs.lastImport?.warningCount).toBe(1);
    const comment = await waitFor(async () => {
      const thread = await callApi<{ items: Array<{ body: { markdown: string } }> }>(
        `${emulator.baseUrl}/spaces/${space}/change-requests/${secondCr.id}/comments?status=all`,
        emulator.tokens.admin,
      );
      return thread.body.items.find((item) => item.body.markdown.includes('import warning'))?.body.markdown;
    }, 'the import warning in the link comment');
    expect(comment).toContain('### 1 broken link\n');
    expect(comment).toContain('### 1 import warning\n');
    expect(comment).toContain('- `SUMMARY.md:5`: ');
    expect(docs.changeRequests).toEqual([
      expect.objectContaining({
        changeRequest: secondCr.id,
        number: 2,
        mergeable: false,
        reasons: ['1 broken link'],
      }),
    ]);
    expect(docs.linkChecks).toEqual([
      {
        target: 'main',
        at: expect.any(String),
        revision: merged,
        broken: 0,
        total: expect.any(Number),
        links: [],
      },
      {
        target: secondCr.id,
        number: 2,
        at: expect.any(String),
        revision: expect.stringMatching(/^rev_/),
        broken: 1,
        total: expect.any(Number),
        // Each broken link with its page and where it is written in git.
        links: [
          {
            pageId: expect.any(String),
            pageTitle: 'Install',
            pagePath: 'install',
            target: 'nowhere.md',
            sourcePath: 'install.md',
            file: 'docs/install.md',
            line: 3,
            column: 5,
          },
        ],
      },
    ]);

    expect(answer.openapi).toEqual([
      expect.objectContaining({
        org: emulator.orgId,
        slug: 'pets',
        source: fixture.specFile,
        version: expect.any(String),
        lastRefresh: expect.objectContaining({ result: 'uploaded', trigger: 'schedule' }),
        lastNewVersion: expect.objectContaining({
          changes: expect.objectContaining({ added: ['GET /pets'], removed: [], changed: [] }),
        }),
      }),
    ]);

    // The merge is remembered on the mapping, and every step that changed something is an event.
    expect(docs.lastMerge).toMatchObject({ changeRequest: { id: firstCr, number: 1 }, revision: merged });
    const summaries = answer.events.map((event) => event.summary);
    expect(summaries).toEqual(
      expect.arrayContaining([
        `imported commit ${first.sha?.slice(0, 7)} into change request #1`,
        'merged change request #1',
        `imported commit ${second.slice(0, 7)} into change request #2`,
        'checked the links of the main content: no broken link',
        expect.stringMatching(/^uploaded spec .+\/pets: version \S+, operations \+1 -0 ~0$/),
      ]),
    );
    expect(answer.events.find((event) => event.summary === 'merged change request #1')).toMatchObject({
      queue: 'maintain',
      job: 'merge-change-request',
      result: 'merged',
      mapping: 'docs',
    });
    // Newest first; polls that found nothing are not events.
    const eventTimes = answer.events.map((event) => Date.parse(event.at));
    expect(eventTimes).toEqual([...eventTimes].sort((a, b) => b - a));
    expect(answer.events.some((event) => event.job.startsWith('poll-'))).toBe(false);

    expect(Object.keys(answer.queues)).toEqual([
      'import',
      'maintain',
      'export',
      'openapi',
      'links',
      'notify',
    ]);
    expect(answer.queues.import?.failed).toBeGreaterThanOrEqual(1);
    expect(answer.queues.import?.completed).toBeGreaterThanOrEqual(1);

    const failure = answer.failures.find((entry) => entry.name === 'poll-git');
    expect(failure).toMatchObject({ queue: 'import', attemptsMade: 1 });
    // The mapping's first poll (queued at once beside its scheduler) or a tick of its scheduler.
    expect(failure?.id).toMatch(/poll-git\/(now\/)?lost/);
    expect(failure?.failedReason).toMatch(/^GIT_NOT_FOUND: /);
    expect(Date.parse(failure?.at ?? '')).toBeGreaterThan(Date.now() - 60_000);
    expect(mapping(answer, 'lost').lastError).toMatchObject({ code: 'GIT_NOT_FOUND' });

    const keys = answer.nextRuns.map((run) => run.key);
    expect(keys).toEqual(
      expect.arrayContaining([
        'poll-git/docs',
        'poll-change-requests/docs',
        'links-schedule/docs',
        'poll-git/lost',
        `refresh-openapi/${encodeURIComponent(`${emulator.orgId}/pets`)}`,
      ]),
    );
    for (const run of answer.nextRuns) expect(new Date(run.next).toISOString()).toBe(run.next);
    const times = answer.nextRuns.map((run) => Date.parse(run.next));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    // The hourly ones ran at start: the link check's next run is an hour away; the poll's (its
    // first run queued beside its scheduler) at its place in the hour to come.
    const nextOf = (key: string) => Date.parse(answer.nextRuns.find((run) => run.key === key)?.next ?? '');
    expect(nextOf('links-schedule/docs')).toBeGreaterThan(Date.now() + 30 * 60_000);
    expect(nextOf('poll-git/lost')).toBeGreaterThan(Date.now());
    expect(nextOf('poll-git/lost')).toBeLessThanOrEqual(Date.now() + 60 * 60_000);
    expect(answer.nextRuns.find((run) => run.key === 'poll-git/docs')).toMatchObject({
      queue: 'import',
      name: 'poll-git',
      every: 1000,
    });

    // A paused mapping says so and why; one whose state cannot be read says that, alone.
    const state = new RedisMappingStateStore(redis, prefix);
    await state.update('lost', {
      paused: { reason: 'manual', detail: 'paused by the test', at: new Date().toISOString() },
    });
    expect(mapping(await status(), 'lost')).toMatchObject({
      state: 'paused',
      paused: { reason: 'manual', detail: 'paused by the test' },
    });

    // The last import's warnings, each with where it points, and their count past the stored ones.
    const warnings = [
      {
        code: 'SUMMARY_MISSING_FILE',
        file: 'SUMMARY.md',
        line: 9,
        message: 'guides/old.md is not in the folder: the entry is skipped.',
      },
      {
        code: 'PAGE_UNLISTED',
        file: 'drafts/notes.md',
        message: 'No SUMMARY.md entry lists this page: it is not imported.',
      },
    ];
    await state.update('lost', {
      lastImport: {
        at: new Date().toISOString(),
        result: 'imported',
        source: 'git',
        warnings,
        warningCount: 57,
      },
    });
    expect(mapping(await status(), 'lost').lastImport).toEqual({
      at: expect.any(String),
      result: 'imported',
      source: 'git',
      warnings,
      warningCount: 57,
    });
    // Stored without a count (all of them kept): counted from the list.
    await state.update('lost', {
      lastImport: { at: new Date().toISOString(), result: 'imported', source: 'git', warnings },
    });
    expect(mapping(await status(), 'lost').lastImport).toMatchObject({ warnings, warningCount: 2 });

    await redis.hset(state.keyOf('lost'), 'paused', '"not a pause"');
    const response = await fetch(`${daemon.httpAddress}/status`);
    expect(response.status).toBe(200);
    const partly = (await response.json()) as Status;
    expect(mapping(partly, 'lost').error).toContain('is not valid');
    expect(mapping(partly, 'lost').state).toBeUndefined();
    expect(mapping(partly, 'docs').state).toBe('ok');
  });
});
