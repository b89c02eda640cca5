// What the tests of several docsync processes on one Redis run against: the local service with its
// request log and one door per process, two mappings (`both`, two-way, and `oneway`, git to space,
// each with a repository and a bare remote), one OpenAPI spec in a file, polls every second, and one
// configuration file that every process reads. The test starts the processes; the world gives the
// moves of the people around docsync (commits, reviews, edits in the service, spec changes).
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DOCSYNC_TRAILER } from '../../src/git/docsync-trailer.js';
import { RedisMappingStateStore } from '../../src/state/redis-mapping-state-store.js';
import { type DocsyncProcesses, startDocsyncProcesses } from './docsync-processes.js';
import { createTestRepo, type TestRepo } from './git-repos.js';
import { editInService, findPage } from './service-content.js';
import { type LoggedService, startLoggedService } from './service-request-log.js';
import { callApi, createTestSpace } from './start-test-emulator.js';
import { redisUrl, tempDir, testRedis, uniquePrefix } from './test-context.js';

export type MappingName = 'both' | 'oneway';

export const SPEC_SLUG = 'pets';
/** The page people commit to in each mapping's repository; writers edit notes.md of `both`. */
const COMMIT_PAGE: Record<MappingName, string> = { both: 'docs/guide.md', oneway: 'docs/reference.md' };

export interface ProcessesWorld {
  logged: LoggedService;
  spaces: Record<MappingName, string>;
  repos: Record<MappingName, TestRepo>;
  /** The state of each mapping, read from the shared Redis. */
  state: RedisMappingStateStore;
  prefix: string;
  /** Starts `count` docsync processes on the configuration, process n through door n. */
  start(count: number): Promise<DocsyncProcesses>;
  /** A person pulls, appends a line with `marker` to the mapping's page, commits and pushes: the sha. */
  commit(mapping: MappingName, marker: string): Promise<string>;
  /** A writer appends a line with `marker` to notes.md of the two-way space: the new revision. */
  editInService(marker: string): string;
  /** Writes the spec with this version (atomically, as an editor saving it would). */
  writeSpec(version: string): Promise<void>;
  /** Approves, as the reviewer, each open change request of the space not approved at its revision. */
  approveOpen(mapping: MappingName): Promise<number>;
  /** The main content of a mapping's space, every page's markdown, as one text. */
  spaceText(mapping: MappingName): Promise<string>;
  /** The revisions named by the trailers of docsync's commits on the two-way branch, newest first. */
  exportedRevisions(): Promise<string[]>;
}

export interface ProcessesWorldOptions {
  /** For the Redis prefix. */
  name: string;
  /** Processes the world has doors for. */
  doors: number;
  /** Approvals a merge needs (0: docsync merges at once). */
  approvals: number;
  /** Added to each of docsync's writes to the service, so that writes in flight at once show. */
  writeDelayMs?: number;
}

export async function startProcessesWorld(options: ProcessesWorldOptions): Promise<ProcessesWorld> {
  const logged = await startLoggedService({
    doors: options.doors,
    ...(options.writeDelayMs === undefined ? {} : { writeDelayMs: options.writeDelayMs }),
  });
  const { service } = logged;
  const spaces = {
    both: await createTestSpace(service, 'Two-way docs'),
    oneway: await createTestSpace(service, 'One-way docs'),
  };
  const repos = { both: await createTestRepo(), oneway: await createTestRepo() };
  await repos.both.commit(
    {
      'docs/README.md': '# Two-way docs\n',
      'docs/guide.md': '# Guide\n',
      'docs/notes.md': '# Notes\n',
    },
    'Write the two-way docs',
  );
  await repos.both.push();
  await repos.oneway.commit(
    { 'docs/README.md': '# One-way docs\n', 'docs/reference.md': '# Reference\n' },
    'Write the one-way docs',
  );
  await repos.oneway.push();
  const specDir = await tempDir('processes-spec');
  const specPath = join(specDir, 'openapi.yaml');
  const writeSpec = async (version: string) => {
    await writeFile(`${specPath}.tmp`, specText(version));
    await rename(`${specPath}.tmp`, specPath);
  };
  await writeSpec('1.0.0');
  const prefix = uniquePrefix(options.name);
  const state = new RedisMappingStateStore(testRedis(prefix), prefix);
  const config = `redis: { url: "\${TEST_REDIS_URL}", prefix: ${prefix} }
service: { baseUrl: "\${TEST_SERVICE_URL}", token: ${service.tokens.admin} }
http: { listen: 127.0.0.1:0 }
mappings:
  - name: both
    space: ${spaces.both}
    direction: both
    git: { repo: ${repos.both.remote}, branch: main, dir: docs, poll: 1s }
    changeRequest: { poll: 1s }
    merge: { enabled: true, approvals: ${options.approvals} }
    export: { poll: 1s }
  - name: oneway
    space: ${spaces.oneway}
    direction: git-to-space
    git: { repo: ${repos.oneway.remote}, branch: main, dir: docs, poll: 1s }
    changeRequest: { poll: 1s }
    merge: { enabled: true, approvals: ${options.approvals} }
openapi:
  - org: ${service.orgId}
    slug: ${SPEC_SLUG}
    source: { file: ${specPath} }
    every: 1s
`;
  const ours = (mapping: MappingName) =>
    Object.values(service.emulator.state.changeRequests).filter(
      (cr) => cr.spaceId === spaces[mapping] && cr.status === 'open',
    );
  return {
    logged,
    spaces,
    repos,
    state,
    prefix,
    start: (count) =>
      startDocsyncProcesses({
        config,
        count,
        env: (slot) => ({ TEST_REDIS_URL: redisUrl(), TEST_SERVICE_URL: logged.doorUrl(slot) }),
      }),
    async commit(mapping, marker) {
      const repo = repos[mapping];
      // docsync may have pushed an export meanwhile: the person pulls first, as they would.
      await repo.git('pull', '--quiet', '--ff-only', 'origin', 'main');
      const sha = await repo.commit(
        { [COMMIT_PAGE[mapping]]: `${await repo.git('show', `HEAD:${COMMIT_PAGE[mapping]}`)}\n${marker}\n` },
        `Docs: ${marker}`,
      );
      await repo.push();
      return sha;
    },
    editInService: (marker) =>
      editInService(service.emulator, { spaceId: spaces.both }, (pages) => {
        const page = findPage(pages, 'notes.md');
        page.markdown = `${page.markdown.trimEnd()}\n\n${marker}\n`;
      }).id,
    writeSpec,
    async approveOpen(mapping) {
      let approved = 0;
      for (const cr of ours(mapping)) {
        const done = Object.values(service.emulator.state.reviews).some(
          (review) => review.changeRequestId === cr.id && review.revision === cr.revision,
        );
        if (done) continue;
        const answer = await callApi(
          `${service.baseUrl}/spaces/${spaces[mapping]}/change-requests/${cr.id}/reviews`,
          service.tokens.reviewer,
          'POST',
          { status: 'approved' },
        );
        // Merged or moved on between the look and the review: the next look sees it as it is now.
        if (answer.status === 201) approved += 1;
      }
      return approved;
    },
    async exportedRevisions() {
      await repos.both.git('fetch', '--quiet', 'origin');
      const trailers = await repos.both.git(
        'log',
        `--format=%(trailers:key=${DOCSYNC_TRAILER},valueonly)`,
        'origin/main',
      );
      return trailers.split('\n').filter((line) => line.trim() !== '');
    },
    async spaceText(mapping) {
      const pages = await callApi<unknown>(
        `${service.baseUrl}/spaces/${spaces[mapping]}/content/pages?format=markdown`,
        service.tokens.reader,
      );
      return JSON.stringify(pages.body);
    },
  };
}

/** A valid OpenAPI 3.0 document whose only change between versions is its version. */
function specText(version: string): string {
  return `openapi: 3.0.3\ninfo:\n  title: Pets\n  version: "${version}"\npaths:\n  /pets:\n    get:\n      responses:\n        '200': { description: ok }\n`;
}
