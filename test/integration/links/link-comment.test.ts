// The broken-links comment on a change request, end to end: content imported into a change request
// of the local service, check-links jobs run by the daemon's workers on a private Redis, and the
// change request's thread read back. One comment, edited in place, resolved, reopened; the
// warnings of the import that made the revision listed beside the links.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JOBS } from '../../../jobs/registry.js';
import { jobId } from '../../../src/queue/job-id.js';
import type { ImportOutcome } from '../../../src/state/mapping-state.js';
import { RedisMappingStateStore } from '../../../src/state/redis-mapping-state-store.js';
import { type DocsFolder, docsZip } from '../../support/docs-archives.js';
import { startFileServer } from '../../support/file-server.js';
import { startTestDaemon, type TestDaemon } from '../../support/start-test-daemon.js';
import { callApi, createTestSpace, startTestEmulator } from '../../support/start-test-emulator.js';
import { tempDir, testRedis, uniquePrefix } from '../../support/test-context.js';
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

/** `mapping`: a mapping of the space (its git repository absent: nothing is imported from it). */
async function setUp(options: { mapping?: string } = {}) {
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
  const prefix = uniquePrefix('link-comment');
  const dataDir = await tempDir('daemon-data');
  const daemon = await startTestDaemon({
    prefix,
    jobs: JOBS,
    service: emulator,
    dataDir,
    yaml: `locks: { busyDelay: 100ms }
${
  options.mapping === undefined
    ? ''
    : `mappings:
  - name: ${options.mapping}
    space: ${space}
    git: { repo: ${join(dataDir, 'absent.git')}, branch: main, poll: 1h }
    changeRequest: { poll: 1h }
`
}`,
  });
  const state = new RedisMappingStateStore(testRedis(prefix), prefix);
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

  return { emulator, space, cr, daemon, importDocs, comments, state };
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
    expect(resolved[0]?.body.markdown).toContain('### Nothing to fix');
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

describe('the import warnings in the link comment', () => {
  it("lists them beside the broken links while the revision is the import's, and resolves once neither remains", async () => {
    const { space, cr, daemon, importDocs, comments, state } = await setUp({ mapping: 'docs' });
    const check = (revision: string) => checkLinks(daemon, { space, changeRequest: cr, revision });
    const sha = 'c'.repeat(40);
    const missing = {
      code: 'SUMMARY_MISSING_FILE',
      file: 'SUMMARY.md',
      line: 6,
      message: 'guides/old.md is not in the folder: the entry is skipped.',
    };
    const unlisted = {
      code: 'PAGE_UNLISTED',
      file: 'drafts/[notes](https://evil.example).md',
      message: 'No SUMMARY.md entry lists drafts/[notes](https://evil.example).md: it is not imported.',
    };
    /** Records the import of `revision` with its warnings and the revision's origin, as the import does. */
    const imported = async (revision: string, warnings: ImportOutcome['warnings']) => {
      await state.update('docs', {
        changeRequestId: cr,
        lastImport: {
          at: new Date().toISOString(),
          result: 'imported',
          source: 'git',
          sha,
          changeRequest: { id: cr, number: 1 },
          revision,
          ...(warnings === undefined ? {} : { warnings, warningCount: warnings.length }),
        },
      });
      await state.recordRevisionOrigin(space, revision, {
        kind: 'import',
        mapping: 'docs',
        sha,
        changeRequest: cr,
      });
    };

    // A broken link and two warnings: one comment, both sections.
    const first = await importDocs({
      ...LINKS_OK,
      'install.md': '# Install\n\nSee [missing](missing.md).\n',
    });
    await imported(first, [missing, unlisted]);
    expect(await check(first)).toMatchObject({ comment: 'create', broken: 1, warnings: 2 });
    const [created] = await comments();
    expect(created?.status).toBe('open');
    const text = created?.body.markdown ?? '';
    expect(text).toMatch(/^<!-- docsync:broken-links -->\n### 1 broken link\n/);
    expect(text).toContain('\n### 2 import warnings\n');
    expect(text).toContain('- `SUMMARY.md:6`: guides/old.md is not in the folder: the entry is skipped.');
    // A file name from git is shown as text, never as a link.
    expect(text).toContain(
      '- `drafts/[notes](https://evil.example).md`: No SUMMARY.md entry lists drafts/\\[notes\\]',
    );
    expect(text.indexOf('### 1 broken link')).toBeLessThan(text.indexOf('### 2 import warnings'));
    expect(daemon.lines.find((line) => line.msg === 'link comment created')).toMatchObject({
      broken: 1,
      warnings: 2,
    });

    // The link fixed, one warning left: the same comment, edited, still open.
    const second = await importDocs(LINKS_OK);
    await imported(second, [missing]);
    expect(await check(second)).toMatchObject({ result: 'clean', comment: 'edit', warnings: 1 });
    const [edited] = await comments();
    expect(edited).toMatchObject({ id: created?.id, status: 'open' });
    expect(edited?.body.markdown).not.toContain('broken link');
    expect(edited?.body.markdown).toContain('### 1 import warning\n');
    expect(edited?.body.markdown).not.toContain('drafts/');

    // docsync updating the change request from the main content keeps the import's reading, and so
    // does an import that finds the content unchanged (it records no revision of its own).
    const updated = await importDocs(LINKS_OK);
    await state.recordRevisionOrigin(space, updated, {
      kind: 'update',
      mapping: 'docs',
      sha,
      changeRequest: cr,
    });
    expect(await check(updated)).toMatchObject({ comment: 'leave', warnings: 1 });
    await state.update('docs', {
      lastImport: {
        at: new Date().toISOString(),
        result: 'unchanged',
        source: 'git',
        sha: 'd'.repeat(40),
        warnings: [missing],
        warningCount: 1,
      },
    });
    expect(await check(updated)).toMatchObject({ comment: 'leave', warnings: 1 });

    // The next import reads the folder without warnings: resolved, saying so.
    const third = await importDocs(LINKS_OK);
    await imported(third, undefined);
    expect(await check(third)).toMatchObject({ comment: 'resolve', warnings: 0 });
    const resolved = await comments();
    expect(resolved).toHaveLength(1);
    expect(resolved[0]).toMatchObject({ id: created?.id, status: 'resolved' });
    expect(resolved[0]?.body.markdown).toContain('### Nothing to fix');
  });

  it("claims no warnings for a revision the import did not make, such as a person's edit", async () => {
    const { space, cr, daemon, importDocs, comments, state } = await setUp({ mapping: 'docs' });
    const first = await importDocs(LINKS_OK);
    await state.update('docs', {
      lastImport: {
        at: new Date().toISOString(),
        result: 'imported',
        source: 'git',
        changeRequest: { id: cr, number: 1 },
        revision: first,
        warnings: [{ code: 'SUMMARY_DUPLICATE', file: 'SUMMARY.md', line: 3, message: 'listed twice.' }],
      },
    });
    const edited = await importDocs({ ...LINKS_OK, 'install.md': '# Install\n\nEdited in the service.\n' });
    expect(await checkLinks(daemon, { space, changeRequest: cr, revision: edited })).toMatchObject({
      result: 'clean',
      comment: 'leave',
      warnings: 0,
    });
    expect(await comments()).toEqual([]);
  });
});
