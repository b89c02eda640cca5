// A small tmpfs of the test's own, read-only or of a few megabytes that fill: the only honest way
// to get EROFS or ENOSPC for a test running as root, whom file modes do not stop. Unmounted and
// removed when the test (or file) ends. Needs mount(8) and the right to mount (root, as here and in
// CI); `tmpfsRefusal` says why not elsewhere, for a skip that names its reason.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { closeAfter } from './close-after.js';

const run = promisify(execFile);

export interface TmpfsOptions {
  readOnly?: boolean;
  /** As mount(8) reads it: `1m`, `2m`. */
  size?: string;
}

async function mountAt(dir: string, options: TmpfsOptions): Promise<void> {
  const flags = [options.readOnly === true ? 'ro' : 'rw', `size=${options.size ?? '1m'}`].join(',');
  await run('mount', ['-t', 'tmpfs', '-o', flags, 'tmpfs', dir]);
}

async function unmountAndRemove(dir: string): Promise<void> {
  // Lazy, so that a process the test failed to stop does not keep the mount forever.
  await run('umount', ['-l', dir]).catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
}

/** Why a tmpfs cannot be mounted here (not root, no mount, a container without the right), or undefined. */
export async function tmpfsRefusal(): Promise<string | undefined> {
  const dir = await mkdtemp(join(tmpdir(), 'docsync-tmpfs-probe-'));
  try {
    await mountAt(dir, { readOnly: true });
    return undefined;
  } catch (error) {
    const stderr = (error as { stderr?: unknown }).stderr;
    return `mounting a tmpfs is not permitted here: ${String(stderr ?? error).trim()}`;
  } finally {
    await unmountAndRemove(dir);
  }
}

/** A new folder with a tmpfs mounted on it. */
export async function tmpfsDir(label: string, options: TmpfsOptions = {}): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `docsync-${label}-`));
  closeAfter(() => unmountAndRemove(dir));
  await mountAt(dir, options);
  return dir;
}
