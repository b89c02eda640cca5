// A git repository for a benchmark, as a docs team has one: a bare remote that docsync follows and
// pushes to, and a working clone where people commit. Commits rebase onto what docsync pushed and
// push again when the remote moved meanwhile, as a person would.
import { execFile } from 'node:child_process';
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const PUSH_ATTEMPTS = 5;

export interface BenchRepo {
  /** The bare remote: what a mapping's git.repo names. */
  remote: string;
  /** Runs git on the remote, such as `grep` or `show`; its stdout. */
  remoteGit(...args: string[]): Promise<string>;
  /** Appends `text` to each file (relative to the clone), commits with `message` and pushes; the sha. */
  appendAndPush(files: readonly string[], text: string, message: string): Promise<string>;
}

export async function createBenchRepo(
  root: string,
  files: Record<string, string>,
  branch = 'main',
): Promise<BenchRepo> {
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
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(work, path)), { recursive: true });
    await writeFile(join(work, path), content);
  }
  await git('add', '--all');
  await git('commit', '--quiet', '-m', 'Docs as they are');
  await git('remote', 'add', 'origin', remote);
  await git('push', '--quiet', 'origin', `HEAD:refs/heads/${branch}`);
  return {
    remote,
    remoteGit: async (...args) => (await run('git', ['--git-dir', remote, ...args])).stdout,
    async appendAndPush(paths, text, message) {
      for (let attempt = 1; ; attempt += 1) {
        await git('pull', '--quiet', '--rebase', 'origin', branch);
        if (attempt === 1) {
          for (const path of paths) await appendFile(join(work, path), text);
          await git('add', '--all');
          await git('commit', '--quiet', '-m', message);
        }
        try {
          await git('push', '--quiet', 'origin', `HEAD:refs/heads/${branch}`);
          return await git('rev-parse', 'HEAD');
        } catch (error) {
          // docsync pushed an export between the pull and the push: rebase onto it and push again.
          if (attempt >= PUSH_ATTEMPTS) throw error;
        }
      }
    },
  };
}
