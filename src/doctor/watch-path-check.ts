// The working copy a mapping watches (`git.watch.path`), and the docs folder in it: both must be
// folders on this machine, or the watcher has nothing to watch. Relative paths are relative to the
// folder docsync starts in.
import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { MappingConfig } from '../config/mapping-schema.js';
import type { CheckRunner } from './check-runner.js';
import type { NameSource } from './config-sources.js';
import { describeFailure, failureCode } from './describe-failure.js';
import { type Finding, failed, ok } from './doctor-finding.js';

export interface WatchPathCheckInput {
  runner: CheckRunner;
  names: NameSource;
  cwd: string;
}

/** Undefined when the mapping watches nothing (or imports nothing, as space-to-git). */
export function checkWatchPath(
  input: WatchPathCheckInput,
  mapping: MappingConfig,
  index: number,
): Promise<Finding> | undefined {
  const watch = mapping.git.watch;
  if (watch === undefined || mapping.direction === 'space-to-git') return undefined;
  return (async () => {
    const root = resolve(input.cwd, watch.path);
    const folder = join(root, mapping.git.dir);
    const attempt = await input.runner.attempt(async () => ({
      root: await kindOf(root),
      folder: await kindOf(folder),
    }));
    const key = input.names(['mappings', index, 'git', 'watch', 'path']);
    if (!attempt.ok) {
      return failed('watch-path', mapping.name, {
        code: failureCode(attempt.error),
        message: `${watch.path} could not be read: ${describeFailure(attempt.error)}`,
        hint: `check ${key} of mapping ${mapping.name}`,
      });
    }
    const { root: rootKind, folder: folderKind } = attempt.value;
    if (rootKind !== 'folder') {
      return failed('watch-path', mapping.name, {
        code: 'WATCH_PATH_MISSING',
        message: `${watch.path} ${rootKind === 'missing' ? 'does not exist' : 'is not a folder'} (${root})`,
        hint: `check ${key} of mapping ${mapping.name}: a clone of its repository on this machine, relative to the folder docsync starts in (${input.cwd})`,
      });
    }
    if (folderKind !== 'folder') {
      return failed('watch-path', mapping.name, {
        code: 'WATCH_PATH_MISSING',
        message: `${watch.path} has no folder ${mapping.git.dir} (git.dir)`,
        hint: `check ${key} and ${input.names(['mappings', index, 'git', 'dir'])} of mapping ${mapping.name}`,
      });
    }
    return ok(
      'watch-path',
      mapping.name,
      `${watch.path}: watching ${mapping.git.dir === '.' ? 'the whole working copy' : mapping.git.dir}`,
    );
  })();
}

async function kindOf(path: string): Promise<'folder' | 'file' | 'missing'> {
  try {
    return (await stat(path)).isDirectory() ? 'folder' : 'file';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return 'missing';
    throw error;
  }
}
