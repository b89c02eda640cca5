// Bundling a docs folder of 10,000 files (about 100 MB: markdown and random binaries) from git
// objects, beside `git archive --format=zip` of the same tree in the same run: time and peak memory.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { bundleGitFolder } from '../src/content/bundle-git-folder.js';
import { GitMirror } from '../src/git/git-mirror.js';
import { figure } from './figure-table.js';
import { report, summarize } from './stats.js';
import { xorshift } from './xorshift.js';

const FILES = 10_000;
const TARGET_BYTES = 100 * 1024 * 1024;
const RUNS = 3;
const SAMPLE_MS = 20;
const MIB = 1024 * 1024;
const WORDS =
  'the docs team writes guides about install configure deploy quokka service change request page space'.split(
    ' ',
  );

export async function bundleBench(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'docsync-bench-bundle-'));
  try {
    const started = performance.now();
    const source = join(dir, 'source.git');
    const { files, bytes } = await makeRepository(source);
    const mirror = new GitMirror({
      repo: source,
      dir: join(dir, 'mirror.git'),
      log: pino({ level: 'silent' }),
    });
    await mirror.fetch();
    const sha = await mirror.resolve('main');
    if (sha === undefined) throw new Error('the bench repository has no main branch');
    report('bench repository', { files, MiB: bytes / MIB, setupMs: performance.now() - started });

    const archive: { ms: number[]; rssMiB: number[]; zipMiB: number } = { ms: [], rssMiB: [], zipMiB: 0 };
    const bundle: { ms: number[]; rssMiB: number[]; heapMiB: number[]; zipMiB: number } = {
      ms: [],
      rssMiB: [],
      heapMiB: [],
      zipMiB: 0,
    };
    for (let run = 0; run < RUNS; run += 1) {
      const archiveFile = join(dir, `archive-${run}.zip`);
      const measured = await gitArchive(mirror.dir, `${sha}:docs`, archiveFile, join(dir, 'time.txt'));
      archive.ms.push(measured.ms);
      if (measured.rssMiB !== undefined) archive.rssMiB.push(measured.rssMiB);
      archive.zipMiB = (await stat(archiveFile)).size / MIB;
      await rm(archiveFile);

      const bundleFile = join(dir, `bundle-${run}.zip`);
      const sampled = await sampleMemory(() =>
        bundleGitFolder(mirror, sha, 'docs', bundleFile, { maxBytes: 2 * TARGET_BYTES, maxFiles: 2 * FILES }),
      );
      bundle.ms.push(sampled.ms);
      bundle.rssMiB.push(sampled.rssPeakMiB);
      bundle.heapMiB.push(sampled.heapPeakMiB);
      bundle.zipMiB = (await stat(bundleFile)).size / MIB;
      await rm(bundleFile);
    }

    const archiveMs = summarize(archive.ms).median;
    const bundleMs = summarize(bundle.ms).median;
    const rssAbove = Math.max(...bundle.rssMiB);
    report('git archive --format=zip (ms)', summarize(archive.ms));
    report('git archive peak RSS of git (MiB)', {
      max: archive.rssMiB.length > 0 ? Math.max(...archive.rssMiB) : 'n/a',
      zipMiB: archive.zipMiB,
    });
    report('bundleGitFolder (ms)', summarize(bundle.ms));
    report('bundleGitFolder memory (MiB)', {
      rssPeakAboveBaseline: rssAbove,
      heapUsedPeakAboveBaseline: Math.max(...bundle.heapMiB),
      zipMiB: bundle.zipMiB,
    });
    report('target: time <= 1.5x git archive', {
      ratio: bundleMs / archiveMs,
      met: bundleMs <= 1.5 * archiveMs ? 'yes' : 'no',
    });
    report('target: peak RSS < 150 MiB above base', { MiB: rssAbove, met: rssAbove < 150 ? 'yes' : 'no' });
    figure({
      name: 'bundle of the bench docs folder, p50 (ms)',
      docsync: bundleMs,
      baseline: `git archive ${archiveMs.toFixed(0)}`,
      ratio: bundleMs / archiveMs,
      target: '<= 1.5x',
      met: bundleMs <= 1.5 * archiveMs,
    });
    figure({
      name: 'bundle peak RSS above base (MiB)',
      docsync: rssAbove,
      target: '< 150',
      met: rssAbove < 150,
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A bare repository with one commit holding `docs/`, written by `git fast-import` from seeded data. */
async function makeRepository(gitDir: string): Promise<{ files: number; bytes: number }> {
  await run('git', ['init', '--bare', '--quiet', '--template=', '--initial-branch=main', gitDir]);
  const child = spawn('git', ['--git-dir', gitDir, 'fast-import', '--quiet'], {
    stdio: ['pipe', 'ignore', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  const random = xorshift(20_240_601);
  const write = async (chunk: string | Buffer): Promise<void> => {
    if (!child.stdin.write(chunk)) await new Promise((resolve) => child.stdin.once('drain', resolve));
  };
  await write(
    'commit refs/heads/main\ncommitter Bench <bench@example.com> 1700000000 +0000\ndata 6\nbench\n',
  );
  let bytes = 0;
  for (let index = 0; index < FILES; index += 1) {
    const { path, data } = benchFile(index, random);
    bytes += data.length;
    await write(`M 100644 inline ${path}\ndata ${data.length}\n`);
    await write(data);
    await write('\n');
  }
  child.stdin.end();
  if ((await exited) !== 0) throw new Error('git fast-import failed');
  return { files: FILES, bytes };
}

/**
 * File `index`: 70% markdown pages of 1-6 KB, 29.9% random binaries of 2-32 KB, and ten of 2.5 MB,
 * which together come to about 100 MB.
 */
function benchFile(index: number, random: () => number): { path: string; data: Buffer } {
  const section = `section-${String(index % 40).padStart(2, '0')}`;
  if (index === 0) return { path: 'docs/README.md', data: Buffer.from('# Bench docs\n\nStart here.\n') };
  if (index % 1000 === 1)
    return { path: `docs/assets/big-${index}.bin`, data: randomBytes(2.5 * MIB, random) };
  if (index % 10 < 7) {
    const words: string[] = [`# Page ${index}\n\n`];
    const size = 1024 + Math.floor(random() * 5 * 1024);
    for (let length = 0; length < size; ) {
      const word = WORDS[Math.floor(random() * WORDS.length)] ?? 'docs';
      words.push(word, random() < 0.1 ? '.\n' : ' ');
      length += word.length + 1;
    }
    return { path: `docs/${section}/page-${index}.md`, data: Buffer.from(words.join('')) };
  }
  const size = 2 * 1024 + Math.floor(random() * 30 * 1024);
  return { path: `docs/${section}/assets/file-${index}.bin`, data: randomBytes(size, random) };
}

function randomBytes(size: number, random: () => number): Buffer {
  const words = new Uint32Array(Math.ceil(size / 4));
  for (let i = 0; i < words.length; i += 1) words[i] = random() * 0x1_0000_0000;
  return Buffer.from(words.buffer, 0, size);
}

/** `git archive` of `tree` to `outFile`: wall time, and git's peak RSS when /usr/bin/time can tell. */
async function gitArchive(
  gitDir: string,
  tree: string,
  outFile: string,
  timeFile: string,
): Promise<{ ms: number; rssMiB: number | undefined }> {
  const args = ['--git-dir', gitDir, 'archive', '--format=zip', '-o', outFile, tree];
  const timed = await stat('/usr/bin/time').then(
    () => true,
    () => false,
  );
  const started = performance.now();
  if (timed) await run('/usr/bin/time', ['-f', '%M', '-o', timeFile, 'git', ...args]);
  else await run('git', args);
  const ms = performance.now() - started;
  if (!timed) return { ms, rssMiB: undefined };
  const kib = Number((await readFile(timeFile, 'utf8')).trim().split('\n').at(-1));
  return { ms, rssMiB: Number.isFinite(kib) ? kib / 1024 : undefined };
}

/** Runs `work`, sampling this process's RSS and heap every SAMPLE_MS; peaks are above the start. */
async function sampleMemory(
  work: () => Promise<unknown>,
): Promise<{ ms: number; rssPeakMiB: number; heapPeakMiB: number }> {
  const base = process.memoryUsage();
  let rssPeak = base.rss;
  let heapPeak = base.heapUsed;
  const sample = (): void => {
    const now = process.memoryUsage();
    rssPeak = Math.max(rssPeak, now.rss);
    heapPeak = Math.max(heapPeak, now.heapUsed);
  };
  const timer = setInterval(sample, SAMPLE_MS);
  const started = performance.now();
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  const ms = performance.now() - started;
  sample();
  return { ms, rssPeakMiB: (rssPeak - base.rss) / MIB, heapPeakMiB: (heapPeak - base.heapUsed) / MIB };
}

function run(command: string, args: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'inherit'] });
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} exited with ${code ?? 'a signal'}`)),
    );
  });
}
