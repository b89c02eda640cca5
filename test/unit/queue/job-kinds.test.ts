import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkLinksKind } from '../../../jobs/check-links/check-links-kind.js';
import { exportSpaceKind } from '../../../jobs/export-space/export-space-kind.js';
import { importContentKind, worktreeDebounce } from '../../../jobs/import-content/import-content-kind.js';
import { mergeChangeRequestKind } from '../../../jobs/merge-change-request/merge-change-request-kind.js';
import { pollGitKind } from '../../../jobs/poll-git/poll-git-kind.js';
import { refreshOpenApiKind } from '../../../jobs/refresh-openapi/refresh-openapi-kind.js';
import { JOBS } from '../../../jobs/registry.js';
import { updateChangeRequestKind } from '../../../jobs/update-change-request/update-change-request-kind.js';
import type { DocsyncError } from '../../../src/errors/docsync-error.js';
import { PayloadError } from '../../../src/errors/payload-error.js';
import { PACKAGE_ROOT } from '../../../src/package-info.js';
import type { AnyJobKind } from '../../../src/queue/job-kind.js';

const SHA = 'a'.repeat(40);
const changeRequest = { mapping: 'docs', space: 'spc', changeRequest: 'cr_9', revision: 'rev_3' };

/** The error a call threw, so its class, code and message can be asserted together. */
function thrown(call: () => unknown): unknown {
  try {
    call();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to throw');
}

describe('job kinds', () => {
  it('supply the job ids producers built by hand before, so stored jobs and state still match', () => {
    expect(checkLinksKind.jobOptions({ space: 'spc', revision: 'rev_1' })).toEqual({
      jobId: 'links/spc/main/rev_1',
    });
    expect(
      checkLinksKind.jobOptions({ space: 'spc', changeRequest: 'cr_9', revision: 'rev_1', comment: true }),
    ).toEqual({ jobId: 'links/spc/cr_9/rev_1' });
    expect(
      importContentKind.jobOptions({
        source: 'git',
        mapping: 'docs',
        space: 'spc',
        sha: SHA,
        commit: { sha: SHA, subject: 'Edit', authorName: 'Ada' },
      }),
    ).toEqual({ jobId: `import/docs/${SHA}` });
    expect(exportSpaceKind.jobOptions({ mapping: 'docs', space: 'spc', revision: 'rev_2' })).toEqual({
      jobId: 'export/spc/rev_2',
    });
  });

  it('supply the retention of each kind with its id', () => {
    expect(updateChangeRequestKind.jobOptions(changeRequest)).toEqual({
      jobId: 'update/spc/cr_9/rev_3',
      removeOnComplete: true,
    });
    expect(mergeChangeRequestKind.jobOptions(changeRequest)).toEqual({
      jobId: 'merge/spc/cr_9/rev_3',
      removeOnComplete: true,
    });
    expect(pollGitKind.jobOptions({ mapping: 'docs' }, { reason: 'push-abc' })).toEqual({
      jobId: 'poll-git/now/docs/push-abc',
      removeOnComplete: true,
      removeOnFail: 100,
    });
    expect(
      refreshOpenApiKind.jobOptions({ org: 'acme', slug: 'api', trigger: 'git' }, { reason: 'blob1' }),
    ).toEqual({ jobId: 'refresh-openapi/acme/api/git/blob1', removeOnComplete: true, removeOnFail: 100 });
  });

  it("keep the producer's timing options, and the queue's default retention where the kind sets none", () => {
    expect(
      refreshOpenApiKind.jobOptions(
        { org: 'acme', slug: 'api', trigger: 'tick' },
        { reason: 'repeat:1', delay: 1500 },
      ),
    ).toEqual({ jobId: 'refresh-openapi/acme/api/tick/repeat%3A1', delay: 1500 });
    const deduplication = worktreeDebounce('docs', 800);
    expect(
      importContentKind.jobOptions(
        { source: 'worktree', mapping: 'docs', space: 'spc', path: 'wc' },
        { delay: 800, deduplication },
      ),
    ).toEqual({
      delay: 800,
      deduplication: { id: 'watch/docs', ttl: 800, extend: true, replace: true },
    });
  });

  it('refuse a bad payload at the producer, naming the job and the field', () => {
    const missing = thrown(() =>
      checkLinksKind.jobOptions({ space: 'spc' } as unknown as { space: string; revision: string }),
    );
    expect(missing).toBeInstanceOf(PayloadError);
    expect((missing as DocsyncError).code).toBe('JOB_PAYLOAD_INVALID');
    expect((missing as Error).message).toMatch(/^invalid payload for job check-links: revision: /);

    const badSha = thrown(() =>
      importContentKind.jobOptions({
        source: 'git',
        mapping: 'docs',
        space: 'spc',
        sha: 'HEAD',
        commit: { sha: 'HEAD', subject: 'Edit', authorName: 'Ada' },
      }),
    );
    expect((badSha as PayloadError).issues).toEqual([expect.stringMatching(/^sha: /)]);
  });

  it('are each carried by one processor of the registry, under a name of its own', () => {
    const names = JOBS.map((job) => job.name);
    expect(new Set(names).size, names.join(', ')).toBe(names.length);
  });

  it('each live in a kind file of their job folder, registered with its queue, schema and what it counts toward', async () => {
    const kinds = await kindsOfJobFolders();
    expect(kinds.map(({ folder }) => folder)).toContain('poll-git');
    for (const { folder, kind } of kinds) {
      expect(kind.name, `jobs/${folder}/${folder}-kind.ts`).toBe(folder);
      const job = JOBS.find((definition) => definition.name === kind.name);
      expect(job, `${kind.name} is not in jobs/registry.ts`).toBeDefined();
      expect(job?.queue, kind.name).toBe(kind.queue);
      expect(job?.payload === kind.payload, `${kind.name}: the payload schema of its kind`).toBe(true);
      expect(job?.countsToward === kind.countsToward, `${kind.name}: the countsToward of its kind`).toBe(
        true,
      );
    }
    // And no processor without a kind file.
    expect(JOBS.map((job) => job.name).sort()).toEqual(kinds.map(({ kind }) => kind.name).sort());
  });
});

/** The kind each folder of jobs/ declares in its `<folder>-kind.ts`, loaded as a producer would. */
async function kindsOfJobFolders(): Promise<{ folder: string; kind: AnyJobKind }[]> {
  const root = join(PACKAGE_ROOT, 'jobs');
  const folders = (await readdir(root, { withFileTypes: true })).filter((entry) => entry.isDirectory());
  const found: { folder: string; kind: AnyJobKind }[] = [];
  for (const { name: folder } of folders) {
    const module = (await import(pathToFileURL(join(root, folder, `${folder}-kind.ts`)).href)) as Record<
      string,
      unknown
    >;
    const kinds = Object.values(module).filter(isJobKind);
    expect(kinds, `jobs/${folder}/${folder}-kind.ts exports one kind`).toHaveLength(1);
    for (const kind of kinds) found.push({ folder, kind });
  }
  return found;
}

function isJobKind(value: unknown): value is AnyJobKind {
  return (
    typeof value === 'object' &&
    value !== null &&
    'name' in value &&
    'queue' in value &&
    'payload' in value &&
    'countsToward' in value &&
    'enqueue' in value
  );
}
