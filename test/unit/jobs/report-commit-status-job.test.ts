// The commit status job's own decisions, with its services faked and a git host on a loopback port:
// nothing for a mapping without `report` or in a dry run, nothing for an `importing` report of a
// commit already imported, and otherwise the status worded from what is read when it runs. Its
// failures are recorded by the runner with the git host's hint (src/state/record-outcome.ts); the
// statuses' wording is describeCommitStatus's (test/unit/commit-status/), a GitHub App's token
// test/integration/commit-status/'s.
import { describe, expect, it } from 'vitest';
import {
  type ReportCommitStatusServices,
  reportCommitStatusJob,
} from '../../../jobs/report-commit-status/report-commit-status-job.js';
import type { ReportCommitStatusPayload } from '../../../jobs/report-commit-status/report-commit-status-kind.js';
import { parseConfig } from '../../../src/config/load-config.js';
import type { GitMirror } from '../../../src/git/git-mirror.js';
import { memoryStores } from '../../../src/state/memory-stores.js';
import { fakeJobRun } from '../../support/fake-job-run.js';
import { startCannedServer } from '../api/canned-server.js';

const NOW = new Date('2026-03-01T12:00:00Z');
const SHA = 'c'.repeat(40);

/** A GitHub whose API answers each post with `status`, and the services of a reporting mapping. */
async function world(options: { dryRun?: boolean; status?: number } = {}) {
  const github = await startCannedServer((_request, response) => {
    response.writeHead(options.status ?? 201, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ id: 42, state: 'pending', context: 'docsync' }));
  });
  const config = parseConfig(
    JSON.stringify({
      service: { baseUrl: 'https://docs.example.com/v1', token: 't' },
      mappings: [
        {
          name: 'docs',
          space: 'spc_docs',
          git: { repo: './docs', branch: 'main' },
          report: { github: { repo: 'acme/docs', tokenEnv: 'GH_TOKEN', apiUrl: github.baseUrl } },
        },
        { name: 'quiet', space: 'spc_quiet', git: { repo: './quiet', branch: 'main' } },
      ],
    }),
    'docsync.yaml',
    { GH_TOKEN: 'ghp_test' },
  );
  const mirrors: string[] = [];
  const services: ReportCommitStatusServices = {
    config,
    // No event of these tests reads a change request.
    api: undefined,
    stores: memoryStores(() => NOW),
    mirrorFor: (repo) => {
      mirrors.push(repo);
      return { credentials: undefined } as Pick<GitMirror, 'credentials'> as GitMirror;
    },
    dryRun: options.dryRun ?? false,
  };
  return { github, services, mirrors };
}

const run = () => fakeJobRun({ name: 'report-commit-status', queue: 'notify' });

const report = (event: ReportCommitStatusPayload['event']): ReportCommitStatusPayload => ({
  mapping: 'docs',
  sha: SHA,
  event,
});

describe('report-commit-status job', () => {
  it('posts nothing for a mapping without a report block', async () => {
    const { github, services } = await world();
    const result = await reportCommitStatusJob.run(
      { ...services, ...run().run },
      { ...report('deferred'), mapping: 'quiet' },
    );
    expect(result).toEqual({ result: 'not-configured' });
    expect(github.requests).toEqual([]);
  });

  it('posts nothing in a dry run', async () => {
    const { github, services } = await world({ dryRun: true });
    const result = await reportCommitStatusJob.run({ ...services, ...run().run }, report('deferred'));
    expect(result).toEqual({ result: 'dry-run' });
    expect(github.requests).toEqual([]);
  });

  it('skips the pending status of a commit whose import ended before the report ran', async () => {
    const { github, services, mirrors } = await world();
    await services.stores.mappings.update('docs', { lastImportedSha: SHA });
    const result = await reportCommitStatusJob.run({ ...services, ...run().run }, report('importing'));
    expect(result).toEqual({ result: 'skipped' });
    expect(github.requests).toEqual([]);
    expect(mirrors).toEqual([]);
  });

  it('posts the status worded from what it reads when it runs', async () => {
    const { github, services } = await world();
    await services.stores.mappings.update('docs', { lastImportedSha: 'd'.repeat(40) });
    const result = await reportCommitStatusJob.run({ ...services, ...run().run }, report('importing'));
    expect(result).toEqual({
      result: 'posted',
      state: 'pending',
      description: 'importing into the documentation service',
      id: 42,
    });
    expect(github.requests).toHaveLength(1);
    expect(github.requests[0]?.url).toBe(`/v1/repos/acme/docs/statuses/${SHA}`);
    expect(github.requests[0]?.headers.authorization).toContain('ghp_test');
  });

  it("fails with the host's refusal and records nothing itself: the runner does, for the mapping", async () => {
    const { services } = await world({ status: 404 });
    const job = run();
    await expect(
      reportCommitStatusJob.run({ ...services, ...job.run }, report('deferred')),
    ).rejects.toMatchObject({ code: 'GIT_HOST_REFUSED' });
    expect(job.outcomes).toEqual([]);
    expect(await services.stores.mappings.get('docs')).toEqual({});
    const { countsToward } = reportCommitStatusJob;
    expect(countsToward === false ? undefined : countsToward(report('deferred'))).toEqual({
      mapping: 'docs',
    });
  });

  it('fails as MAPPING_UNKNOWN for a mapping gone from the configuration', async () => {
    const { services } = await world();
    await expect(
      reportCommitStatusJob.run({ ...services, ...run().run }, { ...report('deferred'), mapping: 'gone' }),
    ).rejects.toMatchObject({ code: 'MAPPING_UNKNOWN' });
  });
});
