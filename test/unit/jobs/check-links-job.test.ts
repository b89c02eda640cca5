// The link check job's own decisions, with the service's answers faked: what it records per target
// and what it counts as broken, fixed and still broken since the last check, when it leaves the link
// comment alone, and when it asks for the commit's status. Reading the service's lists is
// readLinkCheck's (test/unit/links/), placing links in git and keeping the comment run against real
// repositories and the emulator in test/integration/links/.
import { describe, expect, it } from 'vitest';
import { type CheckLinksServices, checkLinksJob } from '../../../jobs/check-links/check-links-job.js';
import type { DocsApiClient } from '../../../src/api/docs-api-client.js';
import { parseConfig } from '../../../src/config/load-config.js';
import type { BrokenLink } from '../../../src/links/broken-link.js';
import type { Queues } from '../../../src/queue/queues.js';
import { memoryStores } from '../../../src/state/memory-stores.js';
import { fakeJobRun } from '../../support/fake-job-run.js';
import { recordingQueues } from '../../support/recording-queues.js';

const NOW = new Date('2026-03-01T12:00:00Z');
const SHA = 'e'.repeat(40);

const config = parseConfig(
  JSON.stringify({
    service: { baseUrl: 'https://docs.example.com/v1', token: 't' },
    mappings: [
      {
        name: 'docs',
        space: 'spc_docs',
        git: { repo: './docs', branch: 'main' },
        report: { github: { repo: 'acme/docs', tokenEnv: 'GH_TOKEN' } },
      },
    ],
  }),
  'docsync.yaml',
  { GH_TOKEN: 'ghp_test' },
);

/** A link of the service's list: broken, to `url`, written on page `page`. */
function listed(url: string, page: string) {
  return {
    status: 'broken',
    relation: 'link',
    targetReference: { kind: 'url', url },
    locationReferences: [{ kind: 'page', page: { id: page, title: `Page ${page}`, path: page } }],
  };
}

function brokenLink(url: string, page: string): BrokenLink {
  return { pageId: page, pageTitle: `Page ${page}`, pagePath: page, target: url };
}

/**
 * The service's link check of the main content at `revision`, or of change request cr_1 in
 * `status`; nothing else of it is read (a comment would need more).
 */
function fakeApi(links: ReturnType<typeof listed>[], cr?: { status: string }) {
  const list = async () => ({ items: links, stats: { total: 10, broken: { total: links.length } } });
  return {
    spaces: {
      get: async () => ({ revision: 'rev-9' }),
      listLinks: list,
    },
    changeRequests: {
      get: async () => ({ id: 'cr_1', number: 3, revision: 'rev-9', status: cr?.status ?? 'open' }),
      listLinks: list,
    },
    content: { getPages: async () => ({ pages: [] }) },
  } as unknown as DocsApiClient;
}

function services(api: DocsApiClient | undefined, queues?: Queues): CheckLinksServices {
  return {
    config,
    api,
    stores: memoryStores(() => NOW),
    mirrorFor: () => {
      throw new Error('no link of these checks has a file in git');
    },
    queues:
      queues ??
      ({
        get: () => {
          throw new Error('this check must queue nothing');
        },
      } as Pick<Queues, 'get'> as Queues),
    now: () => NOW,
    dryRun: false,
  };
}

const run = () => fakeJobRun({ name: 'check-links', queue: 'links' });

describe('check-links job', () => {
  it('records the check of the main content, and what broke and was fixed since the last one', async () => {
    const svc = services(
      fakeApi([listed('https://b.example.com', 'p1'), listed('https://c.example.com', 'p2')]),
    );
    await svc.stores.links.set('spc_docs', undefined, {
      at: '2026-02-28T12:00:00.000Z',
      revision: 'rev-8',
      broken: [brokenLink('https://a.example.com', 'p1'), brokenLink('https://b.example.com', 'p1')],
      stats: { total: 10, broken: { total: 2 } },
    });
    const result = await checkLinksJob.run(
      { ...svc, ...run().run },
      { space: 'spc_docs', revision: 'latest', comment: false },
    );
    expect(result).toEqual({
      result: 'broken-links',
      revision: 'rev-9',
      broken: 2,
      newlyBroken: 1,
      fixed: 1,
      stillBroken: 1,
    });
    expect(await svc.stores.links.get('spc_docs', undefined)).toEqual({
      at: NOW.toISOString(),
      revision: 'rev-9',
      broken: [brokenLink('https://b.example.com', 'p1'), brokenLink('https://c.example.com', 'p2')],
      stats: { total: 10, broken: { total: 2 } },
    });
  });

  it('leaves the comment of a change request that was merged alone', async () => {
    const svc = services(fakeApi([], { status: 'merged' }));
    const result = await checkLinksJob.run(
      { ...svc, ...run().run },
      { space: 'spc_docs', changeRequest: 'cr_1', revision: 'rev-9', comment: true },
    );
    expect(result).toEqual({
      result: 'clean',
      revision: 'rev-9',
      broken: 0,
      newlyBroken: 0,
      fixed: 0,
      stillBroken: 0,
    });
  });

  it("asks for the status of the commit the change request's revision was imported from", async () => {
    const { queues, added } = recordingQueues();
    const svc = services(fakeApi([], { status: 'merged' }), queues);
    await svc.stores.mappings.recordRevisionOrigin('spc_docs', 'rev-9', {
      kind: 'import',
      mapping: 'docs',
      sha: SHA,
      changeRequest: 'cr_1',
    });
    await checkLinksJob.run(
      { ...svc, ...run().run },
      { space: 'spc_docs', changeRequest: 'cr_1', revision: 'rev-9', comment: false },
    );
    expect(added).toEqual([
      expect.objectContaining({
        queue: 'notify',
        name: 'report-commit-status',
        data: { mapping: 'docs', sha: SHA, event: 'links-checked', changeRequest: 'cr_1' },
      }),
    ]);
  });

  it('fails as SERVICE_NOT_CONFIGURED when the configuration names no service', async () => {
    await expect(
      checkLinksJob.run(
        { ...services(undefined), ...run().run },
        { space: 'spc_docs', revision: 'latest', comment: false },
      ),
    ).rejects.toMatchObject({ code: 'SERVICE_NOT_CONFIGURED' });
  });

  it("counts toward nothing, reads a change request under its space's read lock, and says what it found", () => {
    expect(checkLinksJob.countsToward).toBe(false);
    expect(checkLinksJob.lock).toBe('read');
    expect(
      checkLinksJob.lockKey?.({ space: 'spc_docs', changeRequest: 'cr_1', revision: 'r', comment: false }),
    ).toBe('spc_docs');
    expect(
      checkLinksJob.lockKey?.({ space: 'spc_docs', revision: 'latest', comment: false }),
    ).toBeUndefined();
    const outcome = {
      result: 'broken-links',
      revision: 'rev-9',
      broken: 2,
      newlyBroken: 1,
      fixed: 0,
      stillBroken: 1,
    };
    expect(
      checkLinksJob.describe?.(outcome, {
        space: 'spc_docs',
        changeRequest: 'cr_1',
        revision: 'r',
        comment: false,
      }),
    ).toBe('checked the links of change request cr_1: 2 broken');
    expect(
      checkLinksJob.describe?.(
        { ...outcome, broken: 0 },
        { space: 'spc_docs', revision: 'latest', comment: false },
      ),
    ).toBe('checked the links of the main content: no broken link');
  });
});
