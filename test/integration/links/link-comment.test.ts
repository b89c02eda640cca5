// The broken-links comment on a change request, end to end: content imported into a change request
// of the local service, check-links jobs run by the daemon's workers on a private Redis, and the
// change request's thread read back. One comment, edited in place, resolved, reopened.
import { describe, expect, it } from 'vitest';
import { JOBS } from '../../../jobs/registry.js';
import { jobId } from '../../../src/queue/job-id.js';
import { type DocsFolder, docsZip } from '../../support/docs-archives.js';
import { startFileServer } from '../../support/file-server.js';
import { startTestDaemon, type TestDaemon } from '../../support/start-test-daemon.js';
import { callApi, createTestSpace, startTestEmulator } from '../../support/start-test-emulator.js';
import { tempDir, uniquePrefix } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';

interface ThreadComment {
  id: string;
  status: 'open' | 'resolved';
  editedAt?: string;
  body: { markdown: string };
}

const LINKS_OK: DocsFolder = {
  'README.md': '# Welcome\n\nSee [install](install.md).\n',
  'install.md': '# Install\n\nRun it.\n',
};

async function setUp() {
  const emulator = await startTestEmulator();
  const files = await startFileServer();
  const space = await createTestSpace(emulator);
  const created = await callApi<{ id: string }>(
    `${emulator.baseUrl}/spaces/${space}/change-requests`,
    emulator.tokens.admin,
    'POST',
    { subject: 'Docs with links' },
  );
  expect(created.status).toBe(201);
  const cr = created.body.id;
  const daemon = await startTestDaemon({
    prefix: uniquePrefix('link-comment'),
    jobs: JOBS,
    yaml: `dataDir: ${await tempDir('daemon-data')}
service: { baseUrl: "${emulator.baseUrl}", token: ${emulator.tokens.admin} }
locks: { busyDelay: 100ms }
`,
  });
  let imports = 0;

  /** Imports the folder into the change request; returns the new revision. */
  async function importDocs(folder: DocsFolder): Promise<string> {
    imports += 1;
    const url = files.put(`/docs-${imports}.zip`, await docsZip(folder), 'application/zip');
    const answer = await callApi<{ revision: string }>(
      `${emulator.baseUrl}/spaces/${space}/change-requests/${cr}/content/import`,
      emulator.tokens.admin,
      'POST',
      { url, source: 'zip' },
    );
    expect(answer.status).toBe(201);
    return answer.body.revision;
  }

  async function comments(): Promise<ThreadComment[]> {
    const answer = await callApi<{ items: ThreadComment[] }>(
      `${emulator.baseUrl}/spaces/${space}/change-requests/${cr}/comments?status=all`,
      emulator.tokens.admin,
    );
    return answer.body.items;
  }

  return { emulator, space, cr, daemon, importDocs, comments };
}

let runs = 0;

/** Queues a check of the change request as the import job does, and waits for its result. */
async function checkLinks(
  daemon: TestDaemon,
  payload: { space: string; changeRequest: string; revision: string },
): Promise<Record<string, unknown>> {
  runs += 1;
  const queue = daemon.queues.get('links');
  const job = await queue.add(
    'check-links',
    { ...payload, comment: true },
    { jobId: jobId('links', payload.space, payload.changeRequest, payload.revision, runs) },
  );
  return waitFor(async () => {
    const state = await queue.getJobState(job.id ?? '');
    if (state === 'failed')
      throw new Error(`check-links failed: ${(await queue.getJob(job.id ?? ''))?.failedReason}`);
    if (state !== 'completed') return undefined;
    return (await queue.getJob(job.id ?? ''))?.returnvalue as Record<string, unknown>;
  }, 'the link check');
}

describe('the link comment on a change request', () => {
  it('is created once, edited when another link breaks, resolved when all are fixed, reopened after', async () => {
    const { space, cr, daemon, importDocs, comments } = await setUp();
    const check = (revision: string) => checkLinks(daemon, { space, changeRequest: cr, revision });

    // One broken link; two checks at once still post one comment.
    const first = await importDocs({
      ...LINKS_OK,
      'install.md': '# Install\n\nSee [missing](missing.md).\n',
    });
    const results = await Promise.all([check(first), check(first)]);
    expect(results.map((result) => result.comment).sort()).toEqual(['create', 'leave']);
    const [created] = await comments();
    expect(await comments()).toHaveLength(1);
    expect(created).toMatchObject({ status: 'open' });
    expect(created?.body.markdown).toMatch(/^<!-- docsync:broken-links -->\n### 1 broken link\n/);
    expect(created?.body.markdown).toContain('- `install`\n  - `missing.md`');
    expect(created?.editedAt).toBeUndefined();
    expect(daemon.lines.filter((line) => line.msg === 'link broken')).toEqual([
      expect.objectContaining({ change: 'new', page: 'install', target: 'missing.md', cr }),
    ]);

    // Another link breaks: the same comment, edited.
    const second = await importDocs({
      'README.md': '# Welcome\n\nSee [install](install.md) and [usage](usage.md).\n',
      'install.md': '# Install\n\nSee [missing](missing.md).\n',
    });
    expect(await check(second)).toMatchObject({ comment: 'edit', broken: 2, newlyBroken: 1, stillBroken: 1 });
    const edited = await comments();
    expect(edited).toHaveLength(1);
    expect(edited[0]).toMatchObject({ id: created?.id, status: 'open', editedAt: expect.any(String) });
    expect(edited[0]?.body.markdown).toContain('### 2 broken links');
    expect(edited[0]?.body.markdown).toContain('usage.md');
    expect(daemon.lines.find((line) => line.msg === 'links still broken')).toMatchObject({ count: 1 });

    // Every link fixed: the comment says so and is resolved.
    const third = await importDocs(LINKS_OK);
    expect(await check(third)).toMatchObject({ result: 'clean', comment: 'resolve', fixed: 2 });
    const resolved = await comments();
    expect(resolved).toHaveLength(1);
    expect(resolved[0]).toMatchObject({ id: created?.id, status: 'resolved' });
    expect(resolved[0]?.body.markdown).toContain('### No broken links');
    expect(await check(third)).toMatchObject({ comment: 'leave' });

    // A link breaks again: the same comment, reopened with the new list.
    const fourth = await importDocs({ ...LINKS_OK, 'install.md': '# Install\n\n[Old](old.md).\n' });
    expect(await check(fourth)).toMatchObject({ comment: 'reopen' });
    const reopened = await comments();
    expect(reopened).toHaveLength(1);
    expect(reopened[0]).toMatchObject({ id: created?.id, status: 'open' });
    expect(reopened[0]?.body.markdown).toContain('old.md');
    expect(reopened[0]?.body.markdown).not.toContain('missing.md');
  });

  it('posts nothing on a change request without broken links, nor when the mapping does not ask', async () => {
    const { space, cr, daemon, importDocs, comments } = await setUp();
    const clean = await importDocs(LINKS_OK);
    expect(await checkLinks(daemon, { space, changeRequest: cr, revision: clean })).toMatchObject({
      result: 'clean',
      comment: 'leave',
    });
    const broken = await importDocs({ ...LINKS_OK, 'install.md': '[x](x.md)\n' });
    const queue = daemon.queues.get('links');
    const job = await queue.add('check-links', { space, changeRequest: cr, revision: broken });
    await waitFor(async () => (await queue.getJobState(job.id ?? '')) === 'completed', 'the check');
    expect((await queue.getJob(job.id ?? ''))?.returnvalue).toMatchObject({
      result: 'broken-links',
      broken: 1,
    });
    expect(await comments()).toEqual([]);
  });
});
