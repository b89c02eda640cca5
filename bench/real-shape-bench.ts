// A docs repository shaped like a real one (200 pages in groups, images, a video over the size a
// mapping leaves out, dotfiles, a configured readme beside the git host's README, SUMMARY.md quirks)
// through the whole daemon: the import (time beside `git archive` of the same folder, warnings),
// a person's merge, an export forced with no edit in between (files changed: target 0) and an
// edit of one page in the service (files changed: target 1).
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import { pino } from 'pino';
import { JOBS } from '../jobs/registry.js';
import { parseConfig } from '../src/config/load-config.js';
import { startDaemon } from '../src/daemon/start-daemon.js';
import type { MappingState } from '../src/state/mapping-state.js';
import { RedisMappingStateStore } from '../src/state/redis-mapping-state-store.js';
import { detachedShutdown } from '../test/support/detached-shutdown.js';
import { writeRealShapedDocs } from '../test/support/real-shaped-docs.js';
import { editInService, findPage } from '../test/support/service-content.js';
import { BENCH_ADMIN_TOKEN, BENCH_REVIEWER_TOKEN, startBenchService } from './bench-service.js';
import { figure } from './figure-table.js';
import { report, summarize } from './stats.js';

const run = promisify(execFile);
const MIB = 1024 * 1024;
const RUNS = 3;

interface Line {
  msg?: string;
  name?: string;
  durationMs?: number;
  [key: string]: unknown;
}

export async function realShapeBench(): Promise<void> {
  const archive: number[] = [];
  const importMs: number[] = [];
  const exportMs: number[] = [];
  const noEdit: number[] = [];
  const oneEdit: number[] = [];
  let warnings: Record<string, number> = {};
  let repoMiB = 0;
  for (let i = 0; i < RUNS; i += 1) {
    const figures = await oneRun();
    archive.push(figures.archiveMs);
    importMs.push(figures.importMs);
    exportMs.push(figures.exportMs);
    noEdit.push(figures.noEditFiles);
    oneEdit.push(figures.oneEditFiles);
    warnings = figures.warnings;
    repoMiB = figures.repoMiB;
  }
  report('real-shaped repository', { pages: 200, MiB: repoMiB });
  report('git archive of the docs folder (baseline)', summarize(archive));
  report('import job (bundle, serve, import into a change request)', summarize(importMs));
  report('import job / git archive (medians)', {
    ratio: summarize(importMs).median / summarize(archive).median,
  });
  figure({
    name: 'real-shaped import job, p50 (ms)',
    docsync: summarize(importMs).median,
    baseline: `git archive ${summarize(archive).median.toFixed(0)}`,
    ratio: summarize(importMs).median / summarize(archive).median,
  });
  figure({
    name: 'files changed by a no-edit round trip',
    docsync: Math.max(...noEdit),
    target: '0',
    met: Math.max(...noEdit) === 0,
  });
  report('warnings by code', warnings);
  report('export job of a one-page edit', summarize(exportMs));
  report('files changed by a round trip with no edit (target 0)', { max: Math.max(...noEdit) });
  report('files changed by a one-page edit (target 1)', {
    min: Math.min(...oneEdit),
    max: Math.max(...oneEdit),
  });
}

async function oneRun() {
  const dir = await mkdtemp(join(tmpdir(), 'docsync-bench-real-'));
  const lines: Line[] = [];
  const log = pino(
    { level: 'info' },
    new Writable({
      write(chunk, _encoding, done) {
        for (const text of String(chunk).split('\n')) if (text !== '') lines.push(JSON.parse(text) as Line);
        done();
      },
    }),
  );
  const service = await startBenchService();
  const shutdown = detachedShutdown(log);
  try {
    const space = await service.createSpace('Docs');

    const remote = join(dir, 'remote.git');
    const work = join(dir, 'work');
    const git = (...args: string[]) =>
      run('git', ['-C', work, '-c', 'user.name=Ada', '-c', 'user.email=ada@example.com', ...args], {
        maxBuffer: 64 * MIB,
      }).then((out) => out.stdout.trim());
    await run('git', ['init', '--quiet', '--bare', '--initial-branch=main', remote]);
    await run('git', ['init', '--quiet', '--initial-branch=main', work]);
    const written = await writeRealShapedDocs(join(work, 'docs'), {
      pages: 200,
      imageBytes: 42 * MIB,
      images: 60,
      videoBytes: 8 * MIB,
    });
    await git('add', '--all');
    await git('commit', '--quiet', '-m', 'Docs as they are');
    await git('remote', 'add', 'origin', remote);
    await git('push', '--quiet', 'origin', 'HEAD:refs/heads/main');
    const sha = await git('rev-parse', 'HEAD');
    const repoMiB =
      Number(await git('count-objects', '-v').then((out) => /size-pack: (\d+)/.exec(out)?.[1] ?? '0')) /
        1024 +
      Number(await git('count-objects', '-v').then((out) => /^size: (\d+)/m.exec(out)?.[1] ?? '0')) / 1024;

    const archiveStarted = performance.now();
    await run('git', [
      '--git-dir',
      remote,
      'archive',
      '--format=zip',
      '-o',
      join(dir, 'archive.zip'),
      `${sha}:docs`,
    ]);
    const archiveMs = performance.now() - archiveStarted;

    const prefix = `bench-real-${process.pid}-${Date.now()}`;
    const config = parseConfig(
      `dataDir: ${join(dir, 'data')}
redis: { prefix: ${prefix} }
http: { listen: 127.0.0.1:0 }
service: { baseUrl: "${service.baseUrl}", token: ${BENCH_ADMIN_TOKEN} }
mappings:
  - name: docs
    space: ${space}
    direction: both
    git: { repo: ${remote}, branch: main, dir: docs, poll: 1s }
    import: { skipFilesOver: 5MiB }
    changeRequest: { poll: 1s }
    export: { poll: 1s, author: { name: Docs Bot, email: docs-bot@example.com } }
`,
      'bench.yaml',
      {},
    );
    const daemon = await startDaemon({ config, log, jobs: JOBS, shutdown, version: 'bench' });
    const state = new RedisMappingStateStore(daemon.redis.producer(), prefix);
    const until = async (test: (s: MappingState) => boolean, what: string): Promise<MappingState> => {
      const deadline = Date.now() + 180_000;
      for (;;) {
        const current = await state.get('docs');
        if (test(current)) return current;
        if (Date.now() > deadline) throw new Error(`bench: timed out waiting for ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };

    const imported = await until(
      (s) => s.lastImport?.sha === sha && s.lastImport.result === 'imported',
      'the import',
    );
    // The runner logs the job's outcome just after the job wrote its state.
    const jobLine = async (name: string, after = 0) => {
      for (let waited = 0; waited < 5_000; waited += 20) {
        const line = lines
          .slice(after)
          .findLast((candidate) => candidate.msg === 'job completed' && candidate.name === name);
        if (line !== undefined) return line;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return undefined;
    };
    const importLine = await jobLine('import-content');
    const warnings: Record<string, number> = {};
    for (const warning of imported.lastImport?.warnings ?? [])
      warnings[warning.code] = (warnings[warning.code] ?? 0) + 1;
    const cr = imported.changeRequestId;
    if (cr === undefined) throw new Error('bench: the import kept no change request');
    await until((s) => s.lastSeenRevision !== undefined, 'the space poll baseline');

    // A person merges the change request; then an export of the merged revision is forced.
    const merged = await mergeAsReviewer(service.baseUrl, space, cr);
    await until((s) => s.lastSeenRevision === merged, 'the space poll of the merge');
    await daemon.queues
      .get('export')
      .add('export-space', { mapping: 'docs', space, revision: merged }, { jobId: `bench-export-${merged}` });
    await until((s) => s.lastExport?.revision === merged, 'the forced export');
    const afterNoEdit = await run('git', ['--git-dir', remote, 'rev-parse', 'main']).then((out) =>
      out.stdout.trim(),
    );
    const noEditFiles = afterNoEdit === sha ? 0 : await changedFiles(remote, sha, afterNoEdit);

    // A writer edits one page in the service.
    const linesBeforeEdit = lines.length;
    const edit = editInService(service.emulator, { spaceId: space }, (pages) => {
      const target = findPage(pages, written.editablePage);
      target.markdown = `${target.markdown}\nOne line written in the service.\n`;
    });
    const exported = await until((s) => s.lastExport?.revision === edit.id, 'the export of the edit');
    const exportLine = await jobLine('export-space', linesBeforeEdit);
    const tip = exported.lastExport?.sha ?? afterNoEdit;
    return {
      archiveMs,
      importMs: importLine?.durationMs ?? Number.NaN,
      exportMs: exportLine?.durationMs ?? Number.NaN,
      noEditFiles,
      oneEditFiles: tip === afterNoEdit ? 0 : await changedFiles(remote, afterNoEdit, tip),
      warnings,
      repoMiB,
    };
  } finally {
    await shutdown.run('bench finished');
    await service.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** A person merges the change request, as the service's merge button does: the merged revision. */
async function mergeAsReviewer(baseUrl: string, space: string, cr: string): Promise<string> {
  const answer = await fetch(`${baseUrl}/spaces/${space}/change-requests/${cr}/merge`, {
    method: 'POST',
    headers: { authorization: `Bearer ${BENCH_REVIEWER_TOKEN}` },
  });
  if (!answer.ok) throw new Error(`bench: the merge answered ${answer.status} ${await answer.text()}`);
  return ((await answer.json()) as { revision: string }).revision;
}

async function changedFiles(gitDir: string, from: string, to: string): Promise<number> {
  const { stdout } = await run('git', ['--git-dir', gitDir, 'diff', '--name-only', from, to]);
  return stdout.split('\n').filter((line) => line !== '').length;
}
