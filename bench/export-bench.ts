// Space to git on a 10,000-page space: the export job's work (read the content over HTTP from the
// local service, download files, write the folder with git fast-import, push to a bare remote)
// timed four ways, with peak memory and the service's requests: the first export (a commit of every
// page), the same revision again (no content read: the space's revision and git's folder say nothing
// changed), a new revision with the same content (read in full, no commit), and one page edited (a
// one-file commit). Targets: the first under 10 s, the same revision again <= 0.1x of the first.
// Then the revision's body read as the export reads it (streamed, page by page, checked) beside a
// plain JSON.parse of the same bytes.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { createDocsApiClient } from '../src/api/create-docs-api-client.js';
import { readRevisionStream } from '../src/api/read-revision-stream.js';
import { mappingSchema } from '../src/config/mapping-schema.js';
import type { StoredFile, StoredPage } from '../src/emulator/emulator-state.js';
import { runExport } from '../src/export/run-export.js';
import { GitMirror } from '../src/git/git-mirror.js';
import type { ExportOutcome } from '../src/state/mapping-state.js';
import { MemoryMappingStateStore } from '../src/state/memory-mapping-state-store.js';
import { addRevision } from '../test/support/service-content.js';
import { BENCH_ADMIN_TOKEN, startBenchService } from './bench-service.js';
import { figure } from './figure-table.js';
import { report, summarize } from './stats.js';

const SECTIONS = 100; // top-level pages: the root README, then section-01/README.md ... section-99/README.md
const CHILDREN = 99; // pages under each top-level page: 100 x (1 + 99) = 10,000 pages
const FILES = 20;
const MiB = 1024 * 1024;
/** Chunks the revision's body is read in, as a socket delivers it. */
const CHUNK_BYTES = 64 * 1024;
/** Rounds of each revision read, taken in turns; the median counts. */
const READ_ROUNDS = 9;

/** A page of about 1.4 KB: its title as heading, paragraphs, a code block, links to siblings. */
function markdownOf(title: string, page: number, section: string): string {
  const sibling = (page % CHILDREN) + 1;
  const paragraph =
    'Docs teams keep their pages in git and edit them in the service; this paragraph is here to give the page a realistic size. ';
  return `# ${title}\n\n${paragraph.repeat(6)}\n\nSee [the next page](page-${String(sibling).padStart(3, '0')}.md) and [the section](${section}).\n\n\`\`\`sh\nnpm start\n\`\`\`\n\n${paragraph.repeat(4)}\n`;
}

function spaceTree(): { pages: StoredPage[]; files: StoredFile[] } {
  const at = new Date().toISOString();
  const page = (
    id: string,
    title: string,
    sourcePath: string,
    markdown: string,
    pages: StoredPage[] = [],
  ) => ({
    id,
    title,
    slug: id,
    sourcePath,
    markdown,
    createdAt: at,
    updatedAt: at,
    pages,
  });
  const pages: StoredPage[] = [];
  for (let s = 0; s < SECTIONS; s += 1) {
    const folder = `section-${String(s).padStart(2, '0')}`;
    const children = Array.from({ length: CHILDREN }, (_, i) =>
      page(
        `pg_${s}_${i + 1}`,
        `Page ${s}.${i + 1}`,
        `${folder}/page-${String(i + 1).padStart(3, '0')}.md`,
        markdownOf(`Page ${s}.${i + 1}`, i + 1, s === 0 ? '../README.md' : 'README.md'),
      ),
    );
    const title = s === 0 ? 'Welcome' : `Section ${s}`;
    const sourcePath = s === 0 ? 'README.md' : `${folder}/README.md`;
    pages.push(
      page(s === 0 ? 'pg_home' : `pg_${s}`, title, sourcePath, markdownOf(title, 0, 'README.md'), children),
    );
  }
  const files = Array.from({ length: FILES }, (_, i) => {
    const data = Buffer.alloc(4096, i);
    return {
      id: `file_${i}`,
      name: `img-${i}.png`,
      sourcePath: `.gitbook/assets/img-${i}.png`,
      contentType: 'image/png',
      size: data.length,
      data: data.toString('base64'),
    };
  });
  return { pages, files };
}

function countPages(pages: readonly StoredPage[]): number {
  return pages.reduce((sum, page) => sum + 1 + countPages(page.pages), 0);
}

/** Runs `work`, sampling memory every 20 ms: wall time and peaks. */
async function measured<T>(work: () => Promise<T>) {
  const baseline = process.memoryUsage.rss();
  let rss = baseline;
  let heap = process.memoryUsage().heapUsed;
  const sampler = setInterval(() => {
    const usage = process.memoryUsage();
    rss = Math.max(rss, usage.rss);
    heap = Math.max(heap, usage.heapUsed);
  }, 20);
  sampler.unref();
  const started = performance.now();
  try {
    const value = await work();
    const usage = process.memoryUsage();
    return {
      value,
      seconds: (performance.now() - started) / 1000,
      baselineMiB: baseline / MiB,
      peakRssMiB: Math.max(rss, usage.rss) / MiB,
      peakHeapMiB: Math.max(heap, usage.heapUsed) / MiB,
    };
  } finally {
    clearInterval(sampler);
  }
}

export async function exportBench(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'docsync-bench-export-'));
  const log = pino({ level: 'silent' });
  const service = await startBenchService({ log });
  try {
    const remote = join(root, 'remote.git');
    const work = join(root, 'work');
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@b', ...args], {
        encoding: 'utf8',
      }).trim();
    git('init', '--quiet', '--bare', '--initial-branch=main', remote);
    git('init', '--quiet', '--initial-branch=main', work);
    await mkdir(join(work, 'docs'), { recursive: true });
    await mkdir(join(work, 'src'), { recursive: true });
    await writeFile(join(work, 'docs', 'README.md'), '# Docs\n');
    await writeFile(join(work, 'src', 'app.js'), 'x\n');
    git('-C', work, 'add', '--all');
    git('-C', work, 'commit', '--quiet', '-m', 'start');
    git('-C', work, 'push', '--quiet', remote, 'HEAD:refs/heads/main');

    const spaceId = await service.createSpace('Bench');
    const content = spaceTree();
    const pageCount = countPages(content.pages);
    addRevision(service.emulator, { spaceId }, content.pages, content.files);

    const mapping = mappingSchema.parse({
      name: 'bench',
      space: spaceId,
      direction: 'space-to-git',
      git: { repo: remote, branch: 'main', dir: 'docs' },
    });
    const deps = {
      api: createDocsApiClient({ baseUrl: service.baseUrl, token: BENCH_ADMIN_TOKEN, timeout: 120_000 }),
      mirror: new GitMirror({ repo: remote, dir: join(root, 'mirror.git'), log, timeoutMs: 120_000 }),
      state: new MemoryMappingStateStore(),
      log,
      now: () => new Date(),
      signal: new AbortController().signal,
      dryRun: false,
    };
    const tip = () => git('--git-dir', remote, 'rev-parse', 'refs/heads/main');
    const runs: Array<{ label: string; seconds: number; peakRssMiB: number; peakHeapMiB: number }> = [];
    const run = async (label: string, expected: ExportOutcome['result']) => {
      const before = tip();
      service.emulator.counter.reset();
      const figures = await measured(() => runExport(deps, mapping));
      const after = tip();
      if (figures.value.result !== expected || (expected === 'unchanged') !== (before === after))
        throw new Error(
          `${label}: expected ${expected}, got ${JSON.stringify(figures.value)} (main ${before} -> ${after})`,
        );
      const requests = service.emulator.counter.snapshot();
      const contentReads = Object.entries(requests.counts)
        .filter(([route]) => route.includes('/content') || route.includes('/files'))
        .reduce((sum, [, count]) => sum + count, 0);
      report(`export ${label}`, {
        pages: pageCount,
        files: FILES,
        result: figures.value.result,
        seconds: figures.seconds,
        requests: requests.total,
        contentReads,
        rssBeforeMiB: figures.baselineMiB,
        peakRssMiB: figures.peakRssMiB,
        peakHeapMiB: figures.peakHeapMiB,
      });
      runs.push({ label, ...figures });
      return { contentReads };
    };

    await run('first (commit)', 'committed');
    const written = git('--git-dir', remote, 'ls-tree', '-r', '--name-only', 'main', '--', 'docs').split(
      '\n',
    );
    // Every page and file, plus a SUMMARY.md when the export writes one; the start commit's
    // docs/README.md is the root page's file.
    const summary = written.includes('docs/SUMMARY.md') ? 1 : 0;
    report('files in docs/ after the first export', {
      files: written.length,
      expected: pageCount + FILES + summary,
      summaryMd: summary === 1 ? 'yes' : 'no',
    });
    if (written.length !== pageCount + FILES + summary)
      throw new Error(
        `the first export left ${written.length} files in docs/, expected ${pageCount + FILES + summary}`,
      );
    const again = await run('same revision (unchanged)', 'unchanged');
    if (again.contentReads !== 0)
      throw new Error(`the same revision again read the content (${again.contentReads} requests)`);
    addRevision(
      service.emulator,
      { spaceId },
      structuredClone(content.pages),
      structuredClone(content.files),
    );
    await run('new revision, same content (unchanged)', 'unchanged');
    const edited = structuredClone(content);
    const target = edited.pages[1]?.pages[0];
    if (target === undefined) throw new Error('the bench tree has no page to edit');
    target.markdown += '\nOne more line, written in the service.\n';
    addRevision(service.emulator, { spaceId }, edited.pages, edited.files);
    await run('one page edited (commit)', 'committed');
    const changed = git('--git-dir', remote, 'diff', '--name-only', 'main^', 'main').split('\n');
    report('files changed by the edit commit', { files: changed.length, path: changed.join(' ') });
    if (changed.length !== 1 || changed[0] !== `docs/${target.sourcePath}`)
      throw new Error(`the edit commit changed ${changed.join(', ')}, expected docs/${target.sourcePath}`);

    const [first, unchanged, sameContent, one] = runs;
    if (first === undefined || unchanged === undefined || sameContent === undefined || one === undefined)
      throw new Error('a run is missing');
    process.stdout.write(
      `export ${pageCount} pages, ${FILES} files: ${first.seconds.toFixed(2)} s (first export, commit), ` +
        `${unchanged.seconds.toFixed(2)} s (same revision, unchanged), ` +
        `${sameContent.seconds.toFixed(2)} s (new revision, same content), ${one.seconds.toFixed(2)} s (one page edited, commit), ` +
        `peak RSS ${Math.max(...runs.map((r) => r.peakRssMiB)).toFixed(0)} MiB, ` +
        `heap used peak ${Math.max(...runs.map((r) => r.peakHeapMiB)).toFixed(0)} MiB\n`,
    );
    report('target: first export under 10 s', { target: 10, met: first.seconds < 10 ? 'yes' : 'no' });
    figure({
      name: `export of ${pageCount} pages: first (s)`,
      docsync: first.seconds,
      target: '< 10',
      met: first.seconds < 10,
    });
    figure({
      name: `export of ${pageCount} pages: unchanged / first`,
      docsync: unchanged.seconds,
      baseline: `first ${first.seconds.toFixed(2)}`,
      ratio: unchanged.seconds / first.seconds,
      target: '<= 0.1',
      met: unchanged.seconds / first.seconds <= 0.1,
    });
    figure({
      name: `export of ${pageCount} pages: new revision, same content / first`,
      docsync: sameContent.seconds,
      baseline: `first ${first.seconds.toFixed(2)}`,
      ratio: sameContent.seconds / first.seconds,
    });
    await revisionReadBench(service.baseUrl, spaceId, pageCount);
  } finally {
    await service.close();
    await rm(root, { recursive: true, force: true });
  }
}

/**
 * The space's revision body (as `GET .../content` answers it) read the export's way, streamed in
 * chunks and checked page by page, beside JSON.parse of the same bytes (joined and decoded first, as
 * a buffered read would): rounds in turns, the medians compared.
 */
async function revisionReadBench(baseUrl: string, spaceId: string, pageCount: number): Promise<void> {
  const answer = await fetch(`${baseUrl}/spaces/${spaceId}/content`, {
    headers: { authorization: `Bearer ${BENCH_ADMIN_TOKEN}` },
  });
  if (answer.status !== 200) throw new Error(`bench: reading the revision answered ${answer.status}`);
  const body = Buffer.from(await answer.arrayBuffer());
  const chunks: Buffer[] = [];
  for (let at = 0; at < body.length; at += CHUNK_BYTES) chunks.push(body.subarray(at, at + CHUNK_BYTES));
  async function* delivered(): AsyncGenerator<Buffer> {
    yield* chunks;
  }
  const streamed: number[] = [];
  const parsed: number[] = [];
  const limits = { maxPartBytes: 10 * MiB, maxTotalBytes: 2 * body.length };
  const where = {
    method: 'GET',
    path: `/spaces/${spaceId}/content`,
    status: 200,
    requestId: undefined,
    secrets: [],
  };
  const readStreamed = async () => {
    const started = performance.now();
    const revision = await readRevisionStream(delivered(), where, limits);
    streamed.push(performance.now() - started);
    return revision.pages?.length;
  };
  const readParsed = () => {
    const started = performance.now();
    const plain = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { pages: unknown[] };
    parsed.push(performance.now() - started);
    return plain.pages.length;
  };
  // Each goes first in every other round: neither always pays for the other's garbage.
  for (let round = 0; round < READ_ROUNDS; round += 1) {
    const [a, b] =
      round % 2 === 0 ? [await readStreamed(), readParsed()] : [readParsed(), await readStreamed()];
    if (a !== b) throw new Error('bench: the streamed revision and JSON.parse differ');
  }
  const stream = summarize(streamed);
  const plain = summarize(parsed);
  report('revision read (streamed) vs JSON.parse', {
    pages: pageCount,
    bodyMiB: body.length / MiB,
    streamMedianMs: stream.median,
    streamMinMs: stream.min,
    jsonParseMedianMs: plain.median,
    jsonParseMinMs: plain.min,
  });
  figure({
    name: `revision read of ${pageCount} pages (ms): streamed / JSON.parse`,
    docsync: stream.median,
    baseline: `JSON.parse ${plain.median.toFixed(1)}`,
    ratio: stream.median / plain.median,
  });
}
