// The version reconcile job's own decisions that need neither git nor the service: which mappings
// it refuses before it reads anything, the lock it runs under, and what the event log says of its
// calls. The reconcile itself (branches read from a mirror, spaces, collection and site section
// made on the emulator, the state in Redis, the derived mappings' polls) runs in
// test/integration/versions/.
import { describe, expect, it } from 'vitest';
import {
  type ReconcileVersionsServices,
  reconcileVersionsJob,
} from '../../../jobs/reconcile-versions/reconcile-versions-job.js';
import { parseConfig } from '../../../src/config/load-config.js';
import type { Queues } from '../../../src/queue/queues.js';
import type { VersionCall } from '../../../src/versions/version-calls.js';
import { fakeJobRun } from '../../support/fake-job-run.js';

const config = parseConfig(
  `service:
  baseUrl: https://docs.example.com/v1
  token: t
mappings:
  - name: handbook
    git: { repo: ./repo, branches: ["main", "release/*"], dir: docs }
    spaces: { title: "Handbook {version}", collection: Handbook }
    site: { org: org_1, site: Developer docs, section: Handbook, path: "{version}", default: main }
  - name: guide
    space: spc_9
    git: { repo: ./other, branch: main }
`,
  'docsync.yaml',
  {},
);

function services(): ReconcileVersionsServices {
  const untouched = (what: string) => () => {
    throw new Error(`this reconcile must not reach ${what}`);
  };
  return {
    config,
    api: undefined,
    queues: { get: untouched('the queues') } as Pick<Queues, 'get'> as Queues,
    mirrorFor: untouched('git'),
    now: () => new Date('2026-03-01T12:00:00Z'),
    dryRun: false,
  };
}

const run = () => fakeJobRun({ name: 'reconcile-versions', queue: 'maintain' });

function calls(count: number): VersionCall[] {
  return Array.from({ length: count }, (_, index) => ({
    action: 'create space',
    branch: `release/${index}`,
    reason: 'new branch',
  }));
}

describe('reconcile-versions job', () => {
  it('fails as MAPPING_UNKNOWN for a name that is no branches mapping (any more)', async () => {
    for (const mapping of ['gone', 'guide'])
      await expect(
        reconcileVersionsJob.run({ ...services(), ...run().run }, { mapping }),
      ).rejects.toMatchObject({ code: 'MAPPING_UNKNOWN' });
  });

  it('fails as SERVICE_NOT_CONFIGURED without a service client, before it reads git', async () => {
    await expect(
      reconcileVersionsJob.run({ ...services(), ...run().run }, { mapping: 'handbook' }),
    ).rejects.toMatchObject({ code: 'SERVICE_NOT_CONFIGURED' });
  });

  it('runs one reconcile of a mapping at a time, and counts toward no unit', () => {
    expect(reconcileVersionsJob.lockKey?.({ mapping: 'handbook' })).toBe('versions/handbook');
    expect(reconcileVersionsJob.countsToward).toBe(false);
    expect(reconcileVersionsJob.needs).toEqual(['config', 'api', 'queues', 'mirrorFor', 'now', 'dryRun']);
  });

  it('tells the event log of the calls it made or planned, the first twelve by name', () => {
    const payload = { mapping: 'handbook' };
    const result = { versions: 3, drift: [], unmatched: [] };
    expect(
      reconcileVersionsJob.describe?.({ ...result, result: 'unchanged', calls: [] }, payload),
    ).toBeUndefined();
    expect(
      reconcileVersionsJob.describe?.(
        { ...result, result: 'reconciled', calls: calls(1), drift: calls(1) },
        payload,
      ),
    ).toBe('versions of handbook: 1 change(s), 1 restoring drift (create space release/0: new branch)');
    const many = reconcileVersionsJob.describe?.({ ...result, result: 'planned', calls: calls(14) }, payload);
    expect(many).toMatch(/^versions of handbook \(dry run\): 14 change\(s\), 0 restoring drift \(/);
    expect(many).toContain('create space release/11: new branch; and 2 more)');
    expect(many).not.toContain('release/12');
  });
});
