// What the crash soak runs docsync against: the local service in this process (with a tally of the
// calls each token made and the faults answered), two git repositories with bare remotes (a `both`
// mapping whose approved change requests are merged, and a `git-to-space` one), an OpenAPI spec in a
// local file, and docsync's configuration for them with 1 s polls. The workload's moves (commits,
// approvals, edits in the service, spec changes) each leave a marker text whose fate is checked.
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { StoredChangeRequest } from '../src/emulator/emulator-state.js';
import type { FaultConfig } from '../src/emulator/faults.js';
import { editInService, findPage } from '../test/support/service-content.js';
import { type BenchRepo, createBenchRepo } from './bench-git-repo.js';
import {
  BENCH_ADMIN_TOKEN,
  BENCH_REVIEWER_TOKEN,
  type BenchService,
  startBenchService,
} from './bench-service.js';

export type MappingKey = 'both' | 'oneway';

export const MAPPING_NAMES: Record<MappingKey, string> = { both: 'both-docs', oneway: 'oneway-docs' };
/** The page each side writes to: people commit to the guide (or reference), writers edit the notes. */
const COMMIT_PAGE: Record<MappingKey, string> = { both: 'docs/guide.md', oneway: 'docs/reference.md' };
const EDIT_PAGE = 'notes.md';
const SPEC_SLUG = 'crash-api';
const REVIEW_ATTEMPTS = 20;

export interface CallTally {
  /** Requests docsync made to /v1 (its token), and how many of them got an injected 429 or 503. */
  docsync: number;
  faulted: number;
  /** The same count per route (`GET /v1/spaces/:s/change-requests`), to show where calls go. */
  byRoute: Record<string, number>;
}

export interface CrashWorld {
  service: BenchService;
  spaces: Record<MappingKey, string>;
  repos: Record<MappingKey, BenchRepo>;
  specSlug: string;
  configPath: string;
  prefix: string;
  markers: { commits: Record<MappingKey, string[]>; edits: string[]; specs: string[] };
  calls: CallTally;
  /** Markers already counted lost: a later wait for the run to settle no longer waits for them. */
  writtenOff: Set<string>;
  /** Docsync's change requests seen open beside an older open one of the same space, by mapping. */
  overlapping: Record<MappingKey, Set<string>>;
  commit(mapping: MappingKey): Promise<void>;
  editInService(): void;
  changeSpec(): Promise<void>;
  /** Approves, as the reviewer, each open change request of docsync's not yet approved at its revision. */
  approveOpen(): Promise<number>;
  /** docsync's change requests of a mapping's space. */
  changeRequests(mapping: MappingKey): StoredChangeRequest[];
  close(): Promise<void>;
}

export interface CrashWorldOptions {
  dir: string;
  redisUrl: string;
  label: string;
  faults?: FaultConfig;
}

export async function createCrashWorld(options: CrashWorldOptions): Promise<CrashWorld> {
  const { dir } = options;
  const calls: CallTally = { docsync: 0, faulted: 0, byRoute: {} };
  const service = await startBenchService({
    prepare: (emulator) => {
      emulator.app.addHook('onResponse', async (request, reply) => {
        if (!request.url.startsWith('/v1/')) return;
        if (request.headers.authorization !== `Bearer ${BENCH_ADMIN_TOKEN}`) return;
        calls.docsync += 1;
        const route = `${request.method} ${request.routeOptions.url ?? '?'}`;
        calls.byRoute[route] = (calls.byRoute[route] ?? 0) + 1;
        if (reply.statusCode === 429 || reply.statusCode === 503) calls.faulted += 1;
      });
    },
  });
  const spaces = {
    both: await service.createSpace('Two-way docs'),
    oneway: await service.createSpace('One-way docs'),
  };
  // Created with the spaces: the admin's setup calls are not docsync's.
  calls.docsync = 0;
  calls.byRoute = {};
  const repos = {
    both: await createBenchRepo(join(dir, 'repo-both'), {
      'docs/README.md': '# Two-way docs\n\nThe pages of the crash soak.\n',
      'docs/SUMMARY.md':
        '# Summary\n\n* [Two-way docs](README.md)\n* [Guide](guide.md)\n* [Notes](notes.md)\n',
      'docs/guide.md': '# Guide\n\nLine commit-both-000 of the crash soak.\n',
      'docs/notes.md': '# Notes\n\nWritten in the service.\n',
    }),
    oneway: await createBenchRepo(join(dir, 'repo-oneway'), {
      'docs/README.md': '# One-way docs\n\nImported only.\n',
      'docs/SUMMARY.md': '# Summary\n\n* [One-way docs](README.md)\n* [Reference](reference.md)\n',
      'docs/reference.md': '# Reference\n\nLine commit-oneway-000 of the crash soak.\n',
    }),
  };
  const specPath = join(dir, 'openapi.json');
  // The first commits' markers: a wait to settle waits for the first imports too.
  const markers: CrashWorld['markers'] = {
    commits: { both: ['commit-both-000'], oneway: ['commit-oneway-000'] },
    edits: [],
    specs: [],
  };
  const writeSpec = async (change: number) => {
    await writeFile(`${specPath}.tmp`, specText(change));
    await rename(`${specPath}.tmp`, specPath);
    markers.specs.push(`"1.0.${change}"`);
  };
  await writeSpec(0);

  const prefix = `crash-${options.label}-${process.pid}`;
  const configPath = join(dir, 'docsync.yaml');
  await writeFile(
    configPath,
    configText({ dir, redisUrl: options.redisUrl, prefix, service, spaces, repos, specPath }),
  );
  // Only now: the admin's setup above is not what the faults are for.
  if (options.faults !== undefined) service.emulator.faults.set(options.faults);

  const ours = (mapping: MappingKey) =>
    Object.values(service.emulator.state.changeRequests).filter(
      (cr) => cr.spaceId === spaces[mapping] && cr.subject.includes('[docsync '),
    );
  const overlapping = { both: new Set<string>(), oneway: new Set<string>() };
  // Sampled all along: an open change request beside an older open one is a duplicate.
  const sampler = setInterval(() => {
    for (const mapping of ['both', 'oneway'] as const) {
      const open = ours(mapping)
        .filter((cr) => cr.status === 'open' || cr.status === 'draft')
        .sort((a, b) => a.number - b.number);
      for (const extra of open.slice(1)) overlapping[mapping].add(extra.id);
    }
  }, 100);

  let commits = 0;
  let edits = 0;
  let specChanges = 0;
  return {
    service,
    spaces,
    repos,
    specSlug: SPEC_SLUG,
    configPath,
    prefix,
    markers,
    calls,
    writtenOff: new Set(),
    overlapping,
    async commit(mapping) {
      commits += 1;
      const marker = `commit-${mapping}-${String(commits).padStart(3, '0')}`;
      await repos[mapping].appendAndPush(
        [COMMIT_PAGE[mapping]],
        `\nLine ${marker} of the crash soak.\n`,
        `Docs: ${marker}`,
      );
      markers.commits[mapping].push(marker);
    },
    editInService() {
      edits += 1;
      const marker = `service-edit-${String(edits).padStart(3, '0')}`;
      editInService(service.emulator, { spaceId: spaces.both }, (pages) => {
        const page = findPage(pages, (candidate) => candidate.sourcePath === EDIT_PAGE);
        page.markdown = `${page.markdown.trimEnd()}\n\nLine ${marker} of the crash soak.\n`;
      });
      markers.edits.push(marker);
    },
    async changeSpec() {
      specChanges += 1;
      await writeSpec(specChanges);
    },
    async approveOpen() {
      let approved = 0;
      const { reviews } = service.emulator.state;
      for (const mapping of ['both', 'oneway'] as const) {
        for (const cr of ours(mapping)) {
          if (cr.status !== 'open') continue;
          const done = Object.values(reviews).some(
            (review) =>
              review.changeRequestId === cr.id &&
              review.revision === cr.revision &&
              review.status === 'approved',
          );
          if (done) continue;
          await approve(service.baseUrl, spaces[mapping], cr.id);
          approved += 1;
        }
      }
      return approved;
    },
    changeRequests: ours,
    async close() {
      clearInterval(sampler);
      await service.close();
    },
  };
}

/** A review through the service's API, as the reviewer would submit it; injected faults are retried. */
async function approve(baseUrl: string, space: string, cr: string): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    const answer = await fetch(`${baseUrl}/spaces/${space}/change-requests/${cr}/reviews`, {
      method: 'POST',
      headers: { authorization: `Bearer ${BENCH_REVIEWER_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'approved' }),
    });
    const text = await answer.text();
    if (answer.status === 201) return;
    // Merged between the read and the review: nothing left to approve.
    if (answer.status === 400 && /merged|archived/.test(text)) return;
    if ((answer.status !== 429 && answer.status < 500) || attempt >= REVIEW_ATTEMPTS)
      throw new Error(`bench: the review of ${cr} answered ${answer.status} ${text}`);
    await sleep(100);
  }
}

/** A valid OpenAPI 3.0 document that grows by one operation per change. */
function specText(change: number): string {
  const paths: Record<string, unknown> = {};
  for (let n = 0; n <= change; n += 1) {
    paths[`/items-${n}`] = {
      get: { operationId: `listItems${n}`, responses: { '200': { description: `Items of change ${n}` } } },
    };
  }
  return `${JSON.stringify({ openapi: '3.0.3', info: { title: 'Crash soak API', version: `1.0.${change}` }, paths }, null, 2)}\n`;
}

function configText(input: {
  dir: string;
  redisUrl: string;
  prefix: string;
  service: BenchService;
  spaces: Record<MappingKey, string>;
  repos: Record<MappingKey, BenchRepo>;
  specPath: string;
}): string {
  const { service, spaces, repos } = input;
  return `dataDir: ${join(input.dir, 'data')}
service: { baseUrl: "${service.baseUrl}", token: ${BENCH_ADMIN_TOKEN} }
redis: { url: "${input.redisUrl}", prefix: ${input.prefix} }
http: { listen: 127.0.0.1:0 }
log: { level: info }
mappings:
  - name: ${MAPPING_NAMES.both}
    space: ${spaces.both}
    direction: both
    git: { repo: ${repos.both.remote}, branch: main, dir: docs, poll: 1s }
    changeRequest: { poll: 1s }
    merge: { enabled: true, approvals: 1 }
    export: { poll: 1s, author: { name: Docs Bot, email: docs-bot@example.com } }
  - name: ${MAPPING_NAMES.oneway}
    space: ${spaces.oneway}
    direction: git-to-space
    git: { repo: ${repos.oneway.remote}, branch: main, dir: docs, poll: 1s }
    changeRequest: { poll: 1s }
    merge: { enabled: true, approvals: 1 }
openapi:
  - org: ${service.emulator.orgId}
    slug: ${SPEC_SLUG}
    source: { file: ${input.specPath} }
    every: 1s
`;
}
