// Git repositories on disk for the git and bundle tests: a bare remote in a temp folder, a working
// clone that commits and pushes to it, and a GitMirror of the remote under the same folder.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { pino } from 'pino';
import { GitMirror, type GitMirrorOptions } from '../../../src/git/git-mirror.js';

export type Files = Readonly<Record<string, string | Buffer>>;

export interface GitFixture {
  /** The temp folder holding everything below. */
  root: string;
  /** The bare remote, as a local path. */
  remote: string;
  /** The same remote as a file:// URL. */
  remoteUrl: string;
  /** A working clone of the remote, on branch main. */
  work: string;
  /** Runs git in the working clone and returns its trimmed output. */
  git(...args: string[]): string;
  /** Runs git in the bare remote and returns its trimmed output. */
  remoteGit(...args: string[]): string;
  /** Writes (or, with `null`, removes) files of the working clone. */
  write(files: Readonly<Record<string, string | Buffer | null>>): Promise<void>;
  /** Adds a symbolic link in the working clone. */
  link(path: string, target: string): Promise<void>;
  /** Stages everything, commits with `message` (paragraphs) and returns the new commit's sha. */
  commit(...message: string[]): string;
  push(options?: { force?: boolean; branch?: string }): void;
  /** Writes `files`, commits them with `message` and pushes to main: the new commit's sha. */
  publish(files: Readonly<Record<string, string | Buffer | null>>, ...message: string[]): Promise<string>;
  /** A mirror of the remote under the fixture's folder. */
  mirror(options?: Partial<GitMirrorOptions>): GitMirror;
  /** A mirror of the remote, fetched once. */
  fetchedMirror(options?: Partial<GitMirrorOptions>): Promise<GitMirror>;
  cleanup(): Promise<void>;
}

const IDENTITY = ['-c', 'user.name=Docs Writer', '-c', 'user.email=writer@example.com'];
// The tests' git must not see a repository or hooks of whoever runs them.
const ENV = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !name.startsWith('GIT_')),
) as NodeJS.ProcessEnv;

export function runGit(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'init.defaultBranch=main', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    env: { ...ENV, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

export async function createGitFixture(): Promise<GitFixture> {
  const root = await mkdtemp(join(tmpdir(), 'docsync-git-'));
  const remote = join(root, 'remote.git');
  const work = join(root, 'work');
  runGit(root, 'init', '--bare', '--quiet', remote);
  runGit(root, 'init', '--quiet', work);
  runGit(work, 'remote', 'add', 'origin', remote);
  let mirrors = 0;

  const fixture: GitFixture = {
    root,
    remote,
    remoteUrl: pathToFileURL(remote).href,
    work,
    git: (...args) => runGit(work, ...args),
    remoteGit: (...args) => runGit(root, '--git-dir', remote, ...args),
    async write(files) {
      for (const [path, content] of Object.entries(files)) {
        const target = join(work, path);
        if (content === null) {
          await rm(target, { recursive: true, force: true });
          continue;
        }
        await mkdir(dirname(target), { recursive: true });
        await writeFile(target, content);
      }
    },
    async link(path, target) {
      await mkdir(dirname(join(work, path)), { recursive: true });
      await symlink(target, join(work, path));
    },
    commit(...message) {
      runGit(work, 'add', '--all');
      runGit(work, ...IDENTITY, 'commit', '--quiet', '--allow-empty', ...message.flatMap((m) => ['-m', m]));
      return runGit(work, 'rev-parse', 'HEAD');
    },
    push(options = {}) {
      const branch = options.branch ?? 'main';
      runGit(
        work,
        'push',
        '--quiet',
        ...(options.force ? ['--force'] : []),
        'origin',
        `HEAD:refs/heads/${branch}`,
      );
    },
    async publish(files, ...message) {
      await fixture.write(files);
      const sha = fixture.commit(...message);
      fixture.push();
      return sha;
    },
    mirror(options = {}) {
      mirrors += 1;
      return new GitMirror({
        repo: remote,
        dir: join(root, 'data', `mirror-${mirrors}.git`),
        log: pino({ level: 'silent' }),
        env: ENV,
        timeoutMs: 20_000,
        ...options,
      });
    },
    async fetchedMirror(options = {}) {
      const mirror = fixture.mirror(options);
      await mirror.fetch();
      return mirror;
    },
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
  return fixture;
}
