// The push webhook's effect on the queues: an import poll of each single-branch mapping on the
// pushed branch, and a reconcile of each branches mapping whose patterns take the branch, also
// when the branch is deleted; nothing for other repositories or branches.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/load-config.js';
import type { PushEvent } from '../../../src/http/hooks/parse-push-event.js';
import { pushTrigger } from '../../../src/producers/push-trigger.js';
import { Queues } from '../../../src/queue/queues.js';
import { MemoryRepositoryHookStore } from '../../../src/state/memory-repository-hook-store.js';
import { closeAfter } from '../../support/close-after.js';
import { captureLog, redisUrl, testRedis, uniquePrefix } from '../../support/test-context.js';

const REPO = 'https://git.example.com/acme/docs.git';
const SHA = 'a'.repeat(40);
const BEFORE = 'b'.repeat(40);
const NOW = 1_767_000_000_000;

function push(ref: string, changes: Partial<PushEvent> = {}): PushEvent {
  return { ref, after: SHA, before: BEFORE, repository: { urls: [REPO] }, ...changes } as PushEvent;
}

async function setUp() {
  const prefix = uniquePrefix('push-trigger');
  const redis = testRedis(prefix);
  const config = parseConfig(
    `redis: { url: "${redisUrl()}", prefix: ${prefix} }
service: { baseUrl: "https://docs.example.com/v1", token: t }
mappings:
  - { name: guide, space: spc_guide, git: { repo: "${REPO}", branch: main, dir: guide } }
  - name: handbook
    git: { repo: "${REPO}", branches: ["release/*"], dir: docs }
    spaces: { title: "Handbook {version}", org: org_1 }
  - name: elsewhere
    git: { repo: "https://git.example.com/acme/other.git", branches: ["release/*"] }
    spaces: { title: "Other {version}", org: org_1 }
`,
    'docsync.yaml',
    {},
  );
  const queues = new Queues(redis, config, captureLog().log);
  closeAfter(() => queues.close());
  const hooks = new MemoryRepositoryHookStore();
  const trigger = pushTrigger(
    queues.get('import'),
    config.mappings,
    { queue: queues.get('maintain'), mappings: config.branchMappings },
    { hooks, now: () => NOW },
  );
  const queued = async () => ({
    import: (await queues.get('import').getWaiting()).map((job) => [job.name, job.data.mapping]),
    maintain: (await queues.get('maintain').getWaiting()).map((job) => [job.name, job.data.mapping]),
  });
  return { trigger, queued, hooks };
}

describe('a push webhook', () => {
  it('reconciles at once the branches mapping that takes a new branch, and polls the mapping of a branch', async () => {
    const { trigger, queued } = await setUp();
    expect(await trigger(push('refs/heads/release/3.0'))).toBe(1);
    expect(await trigger(push('refs/heads/main'))).toBe(1);
    expect(await queued()).toEqual({
      import: [['poll-git', 'guide']],
      maintain: [['reconcile-versions', 'handbook']],
    });
  });

  it('reconciles when a branch a branches mapping takes is deleted, and ignores other branches', async () => {
    const { trigger, queued } = await setUp();
    expect(await trigger(push('refs/heads/release/2.0', { deleted: true, after: '0'.repeat(40) }))).toBe(1);
    expect(await trigger(push('refs/heads/main', { deleted: true, after: '0'.repeat(40) }))).toBe(0);
    expect(await trigger(push('refs/heads/feature/x'))).toBe(0);
    expect(await trigger(push('refs/tags/release/2.0'))).toBe(0);
    expect(await queued()).toEqual({ import: [], maintain: [['reconcile-versions', 'handbook']] });
  });

  it('remembers that the webhooks of a mapped repository arrive, whatever the branch, and of no other', async () => {
    const { trigger, hooks } = await setUp();
    expect(await hooks.get(REPO, 60_000)).toEqual({});
    await trigger(
      push('refs/heads/feature/x', { repository: { urls: ['https://git.example.com/acme/unmapped.git'] } }),
    );
    expect(await hooks.get(REPO, 60_000)).toEqual({});
    await trigger(push('refs/heads/feature/x'));
    expect(await hooks.get(REPO, 60_000)).toEqual({ hookAt: NOW });
    expect(await hooks.get('https://git.example.com/acme/other.git', 60_000)).toEqual({});
  });
});
