// The local service's import of a docs folder with its link check, beside `git archive` of the same
// folder in the same run (issue 40): a folder of real-size pages (3 KB, ten links of mixed kinds, some
// broken, a SUMMARY.md) committed with git, zipped by `git archive`, imported over HTTP, and its broken
// links read as docsync reads them (`GET /spaces/{s}/links?status=broken`, every page of the list).
// The link check runs on the first read, so the figure is the import plus that first full read.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_ADMIN_TOKEN, startBenchService } from './bench-service.js';
import { figure } from './figure-table.js';
import { report } from './stats.js';
import { xorshift } from './xorshift.js';

const SIZES = [
  { pages: 3_000, repetitions: 5 },
  { pages: 10_000, repetitions: 3 },
] as const;
const TARGET_RATIO = 15;
const SECTIONS = 30;
const PAGE_BYTES = 3 * 1024;
const LINK_PAGE_LIMIT = 1000;

export async function serviceLinksBench(): Promise<void> {
  for (const size of SIZES) await benchSize(size.pages, size.repetitions);
}

async function benchSize(pages: number, repetitions: number): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'docsync-bench-service-'));
  const gitDir = join(dir, 'repo.git');
  const service = await startBenchService();
  const zips = new Map<string, Buffer>();
  const server = createServer((request, response) => {
    const body = zips.get(request.url ?? '');
    if (body === undefined) response.writeHead(404).end();
    else response.writeHead(200, { 'content-length': String(body.length) }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    // One commit per repetition, each page's text changed: no repetition reads text another read.
    const bytes = await makeRepository(gitDir, pages, repetitions);
    const archiveMs: number[] = [];
    const importMs: number[] = [];
    const linksMs: number[] = [];
    let broken = 0;
    for (let run = 0; run < repetitions; run += 1) {
      const zipFile = join(dir, `run-${run}.zip`);
      const started = performance.now();
      await runGit([
        '--git-dir',
        gitDir,
        'archive',
        '--format=zip',
        '-o',
        zipFile,
        `refs/heads/run-${run}:docs`,
      ]);
      archiveMs.push(performance.now() - started);
      zips.set(`/run-${run}.zip`, await readFile(zipFile));

      const spaceId = await service.createSpace(`Bench ${pages} run ${run}`);
      const importStarted = performance.now();
      await call(service.baseUrl, 'POST', `/spaces/${spaceId}/content/import`, {
        url: `${origin}/run-${run}.zip`,
        source: 'zip',
      });
      const imported = performance.now();
      broken = await readBrokenLinks(service.baseUrl, spaceId);
      linksMs.push(performance.now() - imported);
      importMs.push(imported - importStarted);
      zips.delete(`/run-${run}.zip`);
      await rm(zipFile);
    }
    const total = importMs.map((ms, run) => ms + (linksMs[run] ?? 0));
    const baseline = percentile(archiveMs, 0.5);
    const p50 = percentile(total, 0.5);
    const label = `${pages} pages (${(bytes / 1024 / 1024).toFixed(1)} MiB)`;
    report(`${label}: git archive (ms)`, percentiles(archiveMs));
    report(`${label}: import (ms)`, percentiles(importMs));
    report(`${label}: first link read (ms)`, { ...percentiles(linksMs), broken });
    report(`${label}: import + links (ms)`, percentiles(total));
    report(`target: <= ${TARGET_RATIO}x git archive`, {
      ratio: p50 / baseline,
      met: p50 <= TARGET_RATIO * baseline ? 'yes' : 'no',
    });
    figure({
      name: `service import + link check, ${pages} pages, p50 ms`,
      docsync: Math.round(p50),
      baseline: `git archive ${baseline.toFixed(0)}`,
      ratio: p50 / baseline,
      target: `<= ${TARGET_RATIO}x`,
      met: p50 <= TARGET_RATIO * baseline,
    });
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await service.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** Every page of the main content's broken links, as docsync reads them; how many there are. */
async function readBrokenLinks(baseUrl: string, spaceId: string): Promise<number> {
  let count = 0;
  let page: string | undefined;
  do {
    const query = `status=broken&limit=${LINK_PAGE_LIMIT}${page === undefined ? '' : `&page=${page}`}`;
    const answer = (await call(baseUrl, 'GET', `/spaces/${spaceId}/links?${query}`)) as {
      items: unknown[];
      next?: { page: string };
    };
    count += answer.items.length;
    page = answer.next?.page;
  } while (page !== undefined);
  return count;
}

async function call(baseUrl: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const answer = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${BENCH_ADMIN_TOKEN}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!answer.ok)
    throw new Error(`bench: ${method} ${path} answered ${answer.status}: ${await answer.text()}`);
  return answer.json();
}

/**
 * A bare repository with one branch per repetition (`run-<n>`), each one commit of `docs/`: a root
 * README and SUMMARY.md, a README per section, the pages and a few images. Written by `git
 * fast-import` from seeded text. Returns the size of one commit's pages in bytes.
 */
async function makeRepository(gitDir: string, pages: number, repetitions: number): Promise<number> {
  await runGit(['init', '--bare', '--quiet', '--template=', '--initial-branch=main', gitDir]);
  const child = spawn('git', ['--git-dir', gitDir, 'fast-import', '--quiet'], {
    stdio: ['pipe', 'ignore', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  const write = async (chunk: string): Promise<void> => {
    if (!child.stdin.write(chunk)) await new Promise((resolve) => child.stdin.once('drain', resolve));
  };
  const file = async (path: string, text: string): Promise<void> => {
    await write(`M 100644 inline docs/${path}\ndata ${Buffer.byteLength(text)}\n${text}\n`);
  };
  let bytes = 0;
  for (let run = 0; run < repetitions; run += 1) {
    const random = xorshift(20_261_202 + run);
    await write(
      `commit refs/heads/run-${run}\ncommitter Bench <bench@example.com> 1700000000 +0000\ndata 6\nbench\n`,
    );
    await file(
      'README.md',
      `# Bench docs (run ${run})\n\nStart with [the first page](section-00/page-0.md).\n`,
    );
    await file('SUMMARY.md', summary(pages));
    for (let section = 0; section < SECTIONS; section += 1)
      await file(`${sectionName(section)}/README.md`, `# Section ${section}\n\nRun ${run}.\n`);
    for (let image = 0; image < 10; image += 1) await file(`assets/image-${image}.png`, `png ${image}\n`);
    bytes = 0;
    for (let index = 0; index < pages; index += 1) {
      const text = pageText(index, pages, run, random);
      bytes += text.length;
      await file(`${sectionName(index % SECTIONS)}/page-${index}.md`, text);
    }
  }
  child.stdin.end();
  if ((await exited) !== 0) throw new Error('git fast-import failed');
  return bytes;
}

function sectionName(section: number): string {
  return `section-${String(section).padStart(2, '0')}`;
}

function summary(pages: number): string {
  const lines = ['# Summary', '', '* [Welcome](README.md)'];
  for (let section = 0; section < SECTIONS; section += 1) {
    lines.push(`* [Section ${section}](${sectionName(section)}/README.md)`);
    for (let index = section; index < pages; index += SECTIONS)
      lines.push(`  * [Page ${index}](${sectionName(section)}/page-${index}.md)`);
  }
  return `${lines.join('\n')}\n`;
}

const WORDS = ['the', 'service', 'reads', 'every', 'page', 'and', 'checks', 'its', 'links', 'docs', 'sync'];

/**
 * About 3 KB: a heading, paragraphs of words, and ten links of mixed kinds (relative pages with and
 * without anchors, a folder, an image, a reference link and its definition, an autolink, HTML, an
 * external address), one or two of them broken, and a code span and block whose links do not count.
 */
function pageText(index: number, pages: number, run: number, random: () => number): string {
  const other = (offset: number): number => (index + offset) % pages;
  const path = (target: number): string => `../${sectionName(target % SECTIONS)}/page-${target}.md`;
  const links = [
    `[next page](${path(other(1))})`,
    `[a section](${path(other(7))}#step-${index % 5} "Step")`,
    `![diagram](../assets/image-${index % 10}.png)`,
    `[the section](../${sectionName((index + 3) % SECTIONS)}/)`,
    `[reference link][ref-${index}]`,
    `<https://example.com/docs/${index}>`,
    `<a href="${path(other(11))}">HTML link</a>`,
    `<img src="../assets/image-${(index + 1) % 10}.png" alt="x">`,
    index % 3 === 0 ? `[gone](missing-${index}.md)` : `[external](https://www.example.org/${index})`,
    index % 4 === 0 ? `[gone too](../nowhere/page-${index}.md#x)` : `[mail](mailto:docs@example.com)`,
  ];
  const parts = [`# Page ${index}\n\nRevision ${run}.\n\n`];
  let length = parts[0]?.length ?? 0;
  let next = 0;
  while (length < PAGE_BYTES) {
    const words: string[] = [];
    for (let count = 0; count < 40; count += 1)
      words.push(WORDS[Math.floor(random() * WORDS.length)] ?? 'docs');
    const link = links[next];
    if (link !== undefined) words.splice(20, 0, link);
    next += 1;
    const paragraph = `${words.join(' ')}.\n\n`;
    parts.push(paragraph);
    length += paragraph.length;
  }
  while (next < links.length) parts.push(`See ${links[next++]}.\n\n`);
  parts.push('Code does not link: `[x](not-a-link.md)`.\n\n```\n[y](not-either.md)\n```\n\n');
  parts.push(`[ref-${index}]: ${path(other(13))}\n`);
  return parts.join('');
}

function percentile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
}

function percentiles(values: readonly number[]): Record<string, number> {
  return {
    p50: percentile(values, 0.5),
    p95: percentile(values, 0.95),
    p99: percentile(values, 0.99),
    n: values.length,
  };
}

function runGit(args: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { stdio: ['ignore', 'ignore', 'inherit'] });
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`git ${args[2] ?? ''} exited ${code}`)),
    );
  });
}
