// Builds dist/ from the current sources once per integration run, as `npm run build` does: tsc's
// dist/src and the bundle in dist/bundle (what `npm start`, the `docsync` bin and the CLI tests
// run), so that neither is a stale build. Runs that overlap on one checkout
// take turns through a lock folder, so one never reads files another is writing.
import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);
const LOCK_WAIT_MS = 120_000;

export async function buildDist(root: string): Promise<void> {
  const lock = join(root, 'dist', '.build-lock');
  await takeLock(lock);
  try {
    await compile(root);
    await bundle(root);
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

async function compile(root: string): Promise<void> {
  try {
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    await run(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, maxBuffer: 16 << 20 });
  } catch (error) {
    // tsc exits 2 when it found type errors but wrote every file: the tests still run the current
    // sources, and `npm run typecheck` is where type errors fail CI. Exit 1 means nothing was written.
    const { code, stdout } = error as { code?: unknown; stdout?: string };
    if (code !== 2)
      throw new Error(
        `building dist/ for the CLI tests failed (tsc exit ${String(code)}): ${stdout ?? error}`,
      );
    process.stderr.write(`dist/ built with type errors (run npm run typecheck):\n${stdout ?? ''}\n`);
  }
}

/** The second step of `npm run build`: esbuild, from the sources (src/build/bundle-cli.mjs). */
async function bundle(root: string): Promise<void> {
  try {
    await run(process.execPath, [join(root, 'src', 'build', 'bundle-cli.mjs')], { cwd: root });
  } catch (error) {
    const { stderr } = error as { stderr?: string };
    throw new Error(`bundling dist/bundle/ for the CLI tests failed: ${stderr ?? error}`);
  }
}

async function takeLock(lock: string): Promise<void> {
  await mkdir(join(lock, '..'), { recursive: true });
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      await mkdir(lock);
      await writeFile(join(lock, 'pid'), String(process.pid));
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    // A lock left by a run that was killed mid-build is taken over.
    const holder = Number(await readFile(join(lock, 'pid'), 'utf8').catch(() => ''));
    if ((holder > 0 && !alive(holder)) || Date.now() > deadline)
      await rm(lock, { recursive: true, force: true });
    else await sleep(100);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
