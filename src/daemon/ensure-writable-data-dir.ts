// The data folder (mirrors, bundles, the embedded Redis's files) is tried for writing once before
// anything starts, so that a read-only or foreign folder stops docsync with one plain line (exit 2)
// instead of a stack from whichever part first writes there.
import { constants } from 'node:fs';
import { access, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { EnvironmentError } from '../errors/environment-error.js';

/** What a write refused for a reason of the folder, not of docsync, is told as. */
const REASONS: Readonly<Record<string, string>> = {
  EROFS: 'it is on a read-only file system',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is used up',
  ENOTDIR: 'a part of its path is a file, not a folder',
  EEXIST: 'a file of that name is in the way',
};

/** The probe written and removed at once; the pid keeps two starts on one folder apart. */
const probeName = (pid: number) => `.docsync-write-check-${pid}`;

/**
 * Throws DATA_DIR_NOT_WRITABLE, saying why and what to do, unless docsync can write in `dir`
 * (absolute): a file is written and removed in it, or, while it does not exist, the closest folder
 * above it must let it be made. Nothing is made here: each part makes its folder on first use.
 */
export async function ensureWritableDataDir(dir: string): Promise<void> {
  const existing = await closestExisting(dir);
  if (existing === undefined) return;
  try {
    if (!(await stat(existing)).isDirectory())
      throw Object.assign(new Error(`${existing} is not a folder`), {
        code: existing === dir ? 'EEXIST' : 'ENOTDIR',
      });
    if (existing !== dir) {
      await access(existing, constants.W_OK);
      return;
    }
    const probe = join(dir, probeName(process.pid));
    await writeFile(probe, '');
    await rm(probe, { force: true });
  } catch (error) {
    throw notWritable(dir, error);
  }
}

/** `dir` itself, or the closest folder above it that exists. */
async function closestExisting(dir: string): Promise<string | undefined> {
  for (let path = dir; ; path = dirname(path)) {
    try {
      await access(path, constants.F_OK);
      return path;
    } catch {
      if (path === dirname(path)) return undefined;
    }
  }
}

function notWritable(dir: string, error: unknown): Error {
  const code = (error as { code?: unknown } | null)?.code;
  const known = typeof code === 'string' ? REASONS[code] : undefined;
  // Any other cause (EIO, a name too long, a folder where the probe goes) stops the start the same
  // way, with the system's own code: never a stack instead of the one line.
  const reason = known ?? (typeof code === 'string' ? code : 'it cannot be written');
  return new EnvironmentError(
    'DATA_DIR_NOT_WRITABLE',
    `the data folder ${dir} cannot be written (${reason}): make it writable, or set dataDir in the configuration to a folder docsync may write`,
    { cause: error },
  );
}
