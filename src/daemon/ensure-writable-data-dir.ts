// The data folder (mirrors, bundles, the embedded Redis's files) is made and written once before
// anything starts, so that a read-only or foreign folder stops docsync with one plain line (exit 2)
// instead of a stack from whichever part first writes there.
import { constants } from 'node:fs';
import { access, mkdir, rm, writeFile } from 'node:fs/promises';
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

/** Makes `dir` (absolute) and writes a file in it, or throws DATA_DIR_NOT_WRITABLE saying why and what to do. */
export async function ensureWritableDataDir(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
  } catch (error) {
    // A recursive mkdir under a read-only mount says ENOENT: the closest folder that exists says why.
    throw notWritable(dir, (await ancestorProblem(dir)) ?? error);
  }
  const probe = join(dir, probeName(process.pid));
  try {
    await writeFile(probe, '');
  } catch (error) {
    throw notWritable(dir, error);
  }
  await rm(probe, { force: true });
}

async function ancestorProblem(dir: string): Promise<unknown> {
  for (let parent = dirname(dir); ; parent = dirname(parent)) {
    try {
      await access(parent, constants.F_OK);
    } catch {
      if (parent === dirname(parent)) return undefined;
      continue;
    }
    try {
      await access(parent, constants.W_OK);
      return undefined;
    } catch (error) {
      return error;
    }
  }
}

function notWritable(dir: string, error: unknown): Error {
  const code = (error as { code?: unknown } | null)?.code;
  const reason = typeof code === 'string' ? REASONS[code] : undefined;
  if (reason === undefined) return error instanceof Error ? error : new Error(String(error));
  return new EnvironmentError(
    'DATA_DIR_NOT_WRITABLE',
    `the data folder ${dir} cannot be written (${reason}): make it writable, or set dataDir in the configuration to a folder docsync may write`,
    { cause: error },
  );
}
