// Git repositories on disk for tests: a bare remote and a working clone that commits and pushes
// to it, as a docs team would.
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { tempDir } from './test-context.js';

const run = promisify(execFile);

export interface TestRepo {
  /** The bare remote: what a mapping's git.repo names. */
  remote: string;
  /** A working clone of it. */
  work: string;
  git(...args: string[]): Promise<string>;
  /** Writes files (path to content) in the working clone and commits them; returns the sha. */
  commit(files: Record<string, string>, message: string): Promise<string>;
  push(force?: boolean): Promise<void>;
}

export async function createTestRepo(branch = 'main'): Promise<TestRepo> {
  const root = await tempDir('repo');
  const remote = join(root, 'remote.git');
  const work = join(root, 'work');
  await run('git', ['init', '--quiet', '--bare', `--initial-branch=${branch}`, remote]);
  await run('git', ['init', '--quiet', `--initial-branch=${branch}`, work]);
  const git = async (...args: string[]) =>
    (
      await run('git', [
        '-C',
        work,
        '-c',
        'user.name=Ada Lovelace',
        '-c',
        'user.email=ada@example.com',
        ...args,
      ])
    ).stdout.trim();
  await git('remote', 'add', 'origin', remote);
  return {
    remote,
    work,
    git,
    async commit(files, message) {
      for (const [path, content] of Object.entries(files)) {
        await mkdir(dirname(join(work, path)), { recursive: true });
        await writeFile(join(work, path), content);
      }
      await git('add', '--all');
      await git('commit', '--quiet', '--allow-empty', '-m', message);
      return git('rev-parse', 'HEAD');
    },
    async push(force = false) {
      await git('push', '--quiet', ...(force ? ['--force'] : []), 'origin', `HEAD:refs/heads/${branch}`);
    },
  };
}
