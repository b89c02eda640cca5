// A bare copy of a remote's branches that docsync keeps under its data folder, and everything docsync
// reads from it: branch heads, history of a folder, tree ids, files and streams of blobs.
import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, resolve as resolvePath } from 'node:path';
import type { Logger } from '../log/create-logger.js';
import { redactUrlCredentials } from '../log/redact-url-credentials.js';
import { BlobWriter } from './blob-writer.js';
import { type BranchHeads, isBranchHead, parseBranchHeads, sameBranchHeads } from './branch-heads.js';
import type { GitCredentials } from './git-credentials.js';
import { GitError } from './git-error.js';
import { type BlobData, listTreeEntries, readBlobContents, type TreeEntry } from './git-object-streams.js';
import { type GitCommandOptions, GitProcess, gitEnvironment, runGit } from './git-process.js';
import { type FolderObjects, openFolderObjects } from './open-folder-objects.js';
import {
  COMMIT_LOG_FORMAT,
  type CommitInfo,
  CommitLogFormatError,
  parseCommitLog,
} from './parse-commit-log.js';
import { pushCommit } from './push-commit.js';
import { reachRemote } from './reach-remote.js';
import { readFilesAt } from './read-files-at.js';
import { checkBranch, checkSha, gitPath, objectName, pathspec } from './revision-names.js';
import { type FolderCommit, writeFolderCommit } from './write-folder-commit.js';

export type { BlobData, CommitInfo, FolderObjects, TreeEntry };

export interface GitMirrorOptions {
  /** Any URL git understands: https, ssh, `git@host:path`, a local path, `file://`. */
  repo: string;
  /** Where the bare mirror lives; created by the first fetch. */
  dir: string;
  log: Logger;
  /** Git's environment, where credentials come from (credential helpers, GIT_ASKPASS, SSH_AUTH_SOCK). */
  env?: NodeJS.ProcessEnv;
  /** The remote's credentials (`git.auth`), given to the commands that reach it, and to no other. */
  credentials?: GitCredentials | undefined;
  /** Time limit of one command; of one wait for output, for the streams. */
  timeoutMs?: number;
}

export interface CommitRange {
  /** Commits reachable from here are left out; all history up to `to` when not given. */
  from?: string | undefined;
  to: string;
}

export const DEFAULT_GIT_TIMEOUT_MS = 2 * 60 * 1000;

// Only branches: no tags, nor hosting refs such as refs/pull/* that a --mirror clone would copy.
const BRANCHES_REFSPEC = '+refs/heads/*:refs/heads/*';

interface ObjectInfo {
  oid: string;
  type: string;
  size: number;
}

export class GitMirror {
  readonly repo: string;
  readonly dir: string;
  private readonly log: Logger;
  private readonly env: NodeJS.ProcessEnv;
  private readonly timeoutMs: number;
  /** The remote's credentials; commit statuses read a GitHub App's token from them (status-token.ts). */
  readonly credentials: GitCredentials | undefined;
  /** The look (and fetch) under way, and when it started. */
  private fetching: { startedAt: number; done: Promise<void> } | undefined;
  /** When the last look that went through started. */
  private lookedAt: number | undefined;
  /**
   * The mirror's branch heads as read after its last fetch, while no ref write of this process
   * moved one: what a look compares the remote's with, and where `resolve` reads a branch.
   */
  private heads: BranchHeads | undefined;
  // Every command of this process that moves the mirror's refs, one at a time: a fetch that read
  // `main` before a push's update-ref moved it would fail to lock it ("is at X but expected Y").
  private refWrites: Promise<unknown> = Promise.resolve();
  /** Once git turned `cat-file --batch-command` down (older than 2.36). */
  private batchCommandRefused = false;

  constructor(options: GitMirrorOptions) {
    this.repo = options.repo;
    this.dir = resolvePath(options.dir);
    this.log = options.log;
    // The default is the process's own environment, as git would have it on a command line.
    this.env = gitEnvironment(options.env ?? process.env);
    this.timeoutMs = options.timeoutMs ?? DEFAULT_GIT_TIMEOUT_MS;
    this.credentials = options.credentials;
  }

  /**
   * Brings the mirror up to date with the remote's branches: created on first use (in a temp folder
   * renamed into place, so a half-made mirror is never seen); then a look (`ls-remote --heads`),
   * and `fetch --prune` only when the remote's heads are not the mirror's, so a deleted branch goes
   * and a force-pushed one moves. An unchanged repository costs one ls-remote. The URL is given on
   * each command and never written to the mirror's config: credentials in it stay off the disk.
   * Concurrent calls share one look (and the first caller's signal). With `since` (ms since the
   * epoch, when the caller's poll was due), a look that started at or after it answers, running or
   * done, so that the mappings of one repository polled at one tick share it however their jobs
   * are spread over the workers; a look that started before it does not (a push may be newer).
   */
  fetch(signal?: AbortSignal, options: { since?: number | undefined } = {}): Promise<void> {
    const { since } = options;
    const running = this.fetching;
    if (running !== undefined && (since === undefined || running.startedAt >= since)) return running.done;
    if (running === undefined && since !== undefined && this.lookedAt !== undefined && this.lookedAt >= since)
      return Promise.resolve();
    // A new look, after the one running (ref writes are one at a time).
    const startedAt = Date.now();
    const look = { startedAt, done: Promise.resolve() };
    look.done = this.writingRefs(() => this.update(signal))
      .then(() => {
        this.lookedAt = Math.max(this.lookedAt ?? 0, startedAt);
      })
      .finally(() => {
        if (this.fetching === look) this.fetching = undefined;
      });
    this.fetching = look;
    return look.done;
  }

  /** The commit at the tip of `refs/heads/<branch>`, or undefined when the branch does not exist. */
  async resolve(branch: string, signal?: AbortSignal): Promise<string | undefined> {
    if (this.heads !== undefined) return this.heads.get(checkBranch(branch));
    const [head] = await this.objects([`refs/heads/${checkBranch(branch)}^{commit}`], signal);
    return head?.oid;
  }

  /** Whether the mirror has commit `sha` (a data folder made anew has only what the remote has). */
  async hasCommit(sha: string, signal?: AbortSignal): Promise<boolean> {
    const [commit] = await this.objects([`${checkSha(sha)}^{commit}`], signal);
    return commit !== undefined;
  }

  /** The full id of commit `sha` (it may be abbreviated), or undefined when the mirror has none such. */
  async commitId(sha: string, signal?: AbortSignal): Promise<string | undefined> {
    const [commit] = await this.objects([`${checkSha(sha)}^{commit}`], signal);
    return commit?.oid;
  }

  /**
   * Keeps commit `sha` under the mirror's own ref `refs/docsync/keep/<name>` (never pushed, never
   * pruned by a fetch, which prunes only branches), so that git's garbage collection keeps a commit
   * no branch holds: the export's base when git's side of some files was kept.
   */
  async keep(sha: string, name: string, signal?: AbortSignal): Promise<void> {
    const ref = `refs/docsync/keep/${checkBranch(name)}`;
    await this.writingRefs(() => this.run(['update-ref', ref, checkSha(sha)], signal));
  }

  /**
   * Shares commit `sha` with docsync's other processes on the same Redis, whose mirrors lack it: a
   * forced push to the remote's `refs/docsync/<name>`, a ref of docsync's own that no branch, clone
   * or fetch of a person sees (it moves to each new export base, unrelated to the last).
   */
  async share(sha: string, name: string, signal?: AbortSignal): Promise<void> {
    const refspec = `+${checkSha(sha)}:refs/docsync/${checkBranch(name)}`;
    await this.reaching(signal, (options) => pushCommit(this.dir, this.repo, refspec, options));
  }

  /**
   * Fetches what another process shared as `name` into `refs/docsync/keep/<name>`: false when the
   * remote has no such ref (or cannot be read; the caller goes on without it).
   */
  async fetchShared(name: string, signal?: AbortSignal): Promise<boolean> {
    const ref = checkBranch(name);
    const args = ['fetch', '--no-tags', '--no-write-fetch-head', '--quiet', '--', this.repo];
    const refspec = `+refs/docsync/${ref}:refs/docsync/keep/${ref}`;
    const { exitCode } = await this.reaching(signal, (options) =>
      this.writingRefs(() =>
        runGit(['--git-dir', this.dir, ...args, refspec], { ...options, okExitCodes: [1, 128] }),
      ),
    );
    return exitCode === 0;
  }

  /** Whether `descendant` contains `ancestor`; false when `ancestor` is gone from the mirror. */
  async isAncestor(ancestor: string, descendant: string, signal?: AbortSignal): Promise<boolean> {
    // A branch head contains itself: an unchanged poll asks this, and needs no git for it.
    if (ancestor === descendant && isBranchHead(this.heads, descendant)) return true;
    const [base, tip] = await this.objects(
      [`${checkSha(ancestor)}^{commit}`, `${checkSha(descendant)}^{commit}`],
      signal,
    );
    if (tip === undefined) throw this.notFound('merge-base', `has no commit ${descendant}`);
    if (base === undefined) return false;
    const args = ['merge-base', '--is-ancestor', base.oid, tip.oid];
    const { exitCode } = await this.run(args, signal, [1]);
    return exitCode === 0;
  }

  /**
   * Commits in `from..to` that change `dir` ('.' for the whole repository), newest first; at most
   * `limit` of them. Merges that bring no change of their own to the folder are left out.
   */
  async commitsTouching(
    range: CommitRange,
    dir: string,
    options: { limit?: number; signal?: AbortSignal } = {},
  ): Promise<CommitInfo[]> {
    // `X..X` is empty: an unchanged poll asks for it, and a branch head surely exists.
    if (range.from === range.to && isBranchHead(this.heads, range.to)) return [];
    const revisions =
      range.from === undefined ? checkSha(range.to) : `${checkSha(range.from)}..${checkSha(range.to)}`;
    const limit =
      options.limit === undefined ? [] : [`--max-count=${Math.max(0, Math.floor(options.limit))}`];
    const args = [
      '--literal-pathspecs',
      'log',
      '-z',
      `--format=${COMMIT_LOG_FORMAT}`,
      ...limit,
      revisions,
      '--',
      pathspec(gitPath(dir)),
    ];
    return this.parseLog(args, options.signal);
  }

  /**
   * The newest commits up to `to` that change `dir` and whose message has a line starting with
   * `<trailer>:` (its key without case, as git compares trailers), newest first, at most `limit`:
   * the caller tells a real trailer from a line of the message that only looks like one.
   */
  async commitsWithTrailerLine(
    to: string,
    dir: string,
    trailer: string,
    options: { limit: number; signal?: AbortSignal },
  ): Promise<CommitInfo[]> {
    if (!/^[A-Za-z][A-Za-z0-9-]*$/.test(trailer)) throw new TypeError(`not a trailer key: ${trailer}`);
    const signal = options.signal;
    return this.parseLog(
      [
        '--literal-pathspecs',
        'log',
        '-z',
        `--max-count=${Math.max(1, Math.floor(options.limit))}`,
        `--format=${COMMIT_LOG_FORMAT}`,
        '--regexp-ignore-case',
        `--grep=^${trailer}:`,
        checkSha(to),
        '--',
        pathspec(gitPath(dir)),
      ],
      signal,
    );
  }

  /** One commit; a GIT_NOT_FOUND GitError when the mirror does not have it. */
  async commit(sha: string, signal?: AbortSignal): Promise<CommitInfo> {
    const [commit] = await this.parseLog(
      ['log', '-z', '-1', `--format=${COMMIT_LOG_FORMAT}`, checkSha(sha), '--'],
      signal,
    );
    if (commit === undefined) throw this.notFound('log', `has no commit ${sha}`);
    return commit;
  }

  /**
   * The tree id of `dir` at `sha`: equal ids mean identical content, so this is the cheap identity of
   * a folder. Undefined when the folder does not exist there (or is a file); unknown `sha` throws.
   */
  async treeHash(sha: string, dir: string, signal?: AbortSignal): Promise<string | undefined> {
    const [, tree] = await this.commitAndObject(sha, dir, signal);
    return tree?.type === 'tree' ? tree.oid : undefined;
  }

  /** The content of the file at `path` at `sha`, or undefined when there is no file there. */
  async readFile(sha: string, path: string, signal?: AbortSignal): Promise<Buffer | undefined> {
    const [, file] = await this.commitAndObject(sha, path, signal);
    if (file?.type !== 'blob') return undefined;
    for await (const { data } of this.readBlobs([file.oid], signal)) return data;
    return undefined;
  }

  /**
   * The content of each file of `paths` at `sha` (undefined where there is no file), from one git
   * process however many they are; an unknown `sha` is a GIT_NOT_FOUND GitError.
   */
  readFiles(
    sha: string,
    paths: readonly string[],
    signal?: AbortSignal,
  ): Promise<Map<string, Buffer | undefined>> {
    return readFilesAt((args) => this.start(args, signal), checkSha(sha), paths);
  }

  /** The blob id and size of the file at `path` at `sha`, or undefined when there is no file there. */
  async blob(
    sha: string,
    path: string,
    signal?: AbortSignal,
  ): Promise<{ oid: string; size: number } | undefined> {
    const [, file] = await this.commitAndObject(sha, path, signal);
    return file?.type === 'blob' ? { oid: file.oid, size: file.size } : undefined;
  }

  /**
   * A new commit on `parent` with `files` written into `dir` and `remove` deleted there, the rest of
   * the tree as it was, modes kept (see writeFolderCommit); written into the mirror, not pushed.
   */
  writeFolderCommit(commit: FolderCommit, signal?: AbortSignal): Promise<string> {
    return writeFolderCommit(this.dir, commit, this.commandOptions(signal));
  }

  /**
   * A writer of blobs into the mirror (blob-writer.ts), for a repository whose ids are `hashLength`
   * long; blobs `known` to the mirror are not written again.
   */
  openBlobWriter(options: {
    hashLength: number;
    known?: Promise<ReadonlySet<string>>;
    signal?: AbortSignal | undefined;
  }): BlobWriter {
    return new BlobWriter(this.dir, {
      ...this.commandOptions(options.signal),
      hashLength: options.hashLength,
      ...(options.known === undefined ? {} : { known: options.known }),
    });
  }

  /**
   * Pushes `sha` to `refs/heads/<branch>` of the remote: never forced, so a branch that moved since
   * it was read refuses it (GIT_PUSH_REJECTED). The mirror's own branch follows on success.
   */
  async push(sha: string, branch: string, signal?: AbortSignal): Promise<void> {
    const target = `refs/heads/${checkBranch(branch)}`;
    const refspec = `${checkSha(sha)}:${target}`;
    await this.reaching(signal, (options) => pushCommit(this.dir, this.repo, refspec, options));
    // The heads read before (by a look that ran meanwhile, too) are no longer the mirror's.
    this.heads = undefined;
    await this.writingRefs(async () => {
      await this.run(['update-ref', target, checkSha(sha)], signal);
      this.heads = undefined;
    });
  }

  /** Every file below `dir` at `sha` (paths relative to it), streamed from `git ls-tree -r`. */
  listTree(sha: string, dir: string, signal?: AbortSignal): AsyncIterable<TreeEntry> {
    return listTreeEntries((args) => this.start(args, signal), objectName(checkSha(sha), gitPath(dir)));
  }

  /**
   * The folder `dir` at `sha` to read whole: its tree id, every file below it (as listTree) and a
   * stream of its blobs' contents, from one git process (`cat-file --batch-command`, git 2.36+).
   * Undefined when there is no folder there; an unknown `sha` is a GIT_NOT_FOUND GitError. An older
   * git lists it as before: the tree id (`treeHash` when given, which saves that process) beside
   * `ls-tree -r`, and the blobs from a third process.
   */
  async openFolder(
    sha: string,
    dir: string,
    options: { signal?: AbortSignal | undefined; treeHash?: string | undefined } = {},
  ): Promise<FolderObjects | undefined> {
    const { signal } = options;
    if (!this.batchCommandRefused) {
      const opened = await openFolderObjects((args) => this.start(args, signal), checkSha(sha), gitPath(dir));
      if (opened !== 'unsupported') return opened;
      this.batchCommandRefused = true;
      this.log.info(
        { dir: this.dir },
        'git has no cat-file --batch-command (before 2.36): folders are read with three git processes',
      );
    }
    return this.listFolder(sha, dir, options);
  }

  /** The content of each blob, in order, from one `git cat-file --batch`; one blob in memory at a time. */
  readBlobs(blobs: AsyncIterable<string> | Iterable<string>, signal?: AbortSignal): AsyncIterable<BlobData> {
    return readBlobContents((args) => this.start(args, signal), blobs);
  }

  /** openFolder with a git older than 2.36. */
  private async listFolder(
    sha: string,
    dir: string,
    options: { signal?: AbortSignal | undefined; treeHash?: string | undefined },
  ): Promise<FolderObjects | undefined> {
    const { signal } = options;
    // The listing runs beside the tree id's lookup, started first as it takes longer. A missing
    // folder or commit is told by the tree id, whose failure comes first.
    const stopListing = new AbortController();
    const listing = (async () => {
      const entries: TreeEntry[] = [];
      const listed = this.listTree(
        sha,
        dir,
        signal === undefined ? stopListing.signal : AbortSignal.any([signal, stopListing.signal]),
      );
      for await (const entry of listed) entries.push(entry);
      return entries;
    })();
    listing.catch(() => {});
    const treeHash = await (async () => options.treeHash ?? (await this.treeHash(sha, dir, signal)))().catch(
      (error: unknown) => {
        stopListing.abort();
        throw error;
      },
    );
    if (treeHash === undefined) {
      stopListing.abort();
      return undefined;
    }
    let entries: TreeEntry[];
    try {
      entries = await listing;
    } catch (error) {
      // A tree id given for a folder that is not there: the lookup, skipped, still tells it first.
      if (options.treeHash !== undefined && (await this.treeHash(sha, dir, signal)) === undefined)
        return undefined;
      throw error;
    }
    return { treeHash, entries, readBlobs: (blobs) => this.readBlobs(blobs, signal), close: () => {} };
  }

  private async update(signal: AbortSignal | undefined): Promise<void> {
    const started = performance.now();
    const created = !(await isBareRepository(this.dir));
    if (!created && (await this.unchanged(signal))) {
      this.log.debug({ repo: redactUrlCredentials(this.repo), dir: this.dir }, 'git mirror unchanged');
      return;
    }
    this.heads = undefined;
    if (created) {
      await mkdir(dirname(this.dir), { recursive: true });
      const temp = `${this.dir}.tmp-${randomUUID()}`;
      try {
        await runGit(['init', '--bare', '--quiet', '--template=', temp], this.commandOptions(signal));
        await this.fetchInto(temp, signal);
        await rename(temp, this.dir).catch(async (error: unknown) => {
          // Another process made the mirror first: theirs is as good as ours.
          if (!(await isBareRepository(this.dir))) throw error;
        });
      } finally {
        await rm(temp, { recursive: true, force: true });
      }
    } else {
      await this.fetchInto(this.dir, signal);
    }
    const durationMs = Math.round(performance.now() - started);
    this.log.debug(
      { repo: redactUrlCredentials(this.repo), dir: this.dir, created, durationMs },
      'git mirror fetched',
    );
  }

  /**
   * Whether the remote's branch heads are the mirror's: one `ls-remote --heads`, and the mirror's
   * own read once after each fetch (`for-each-ref`), kept until a fetch or a push moves them.
   */
  private async unchanged(signal: AbortSignal | undefined): Promise<boolean> {
    const { stdout } = await this.reaching(signal, (options) =>
      runGit(['--git-dir', this.dir, 'ls-remote', '--heads', '--', this.repo], options),
    );
    const remote = parseBranchHeads(stdout.toString('utf8'));
    const format = '--format=%(objectname) %(refname)';
    const mirror =
      this.heads ??
      parseBranchHeads(
        (await this.run(['for-each-ref', format, 'refs/heads/'], signal)).stdout.toString('utf8'),
      );
    if (!sameBranchHeads(remote, mirror)) return false;
    this.heads = mirror;
    return true;
  }

  private async fetchInto(gitDir: string, signal: AbortSignal | undefined): Promise<void> {
    const args = ['--git-dir', gitDir, 'fetch', '--prune', '--no-tags', '--no-write-fetch-head', '--quiet'];
    await this.reaching(signal, (options) => runGit([...args, '--', this.repo, BRANCHES_REFSPEC], options));
  }

  /** What `sha^{commit}` and `sha:path` name; a GIT_NOT_FOUND GitError when the commit is unknown. */
  private async commitAndObject(sha: string, path: string, signal: AbortSignal | undefined) {
    const checked = checkSha(sha);
    const [commit, object] = await this.objects(
      [`${checked}^{commit}`, objectName(checked, gitPath(path))],
      signal,
    );
    if (commit === undefined) throw this.notFound('cat-file', `has no commit ${sha}`);
    return [commit, object] as const;
  }

  /** Each name's object, or undefined when it names none; one `cat-file --batch-check` for all. */
  private async objects(
    names: readonly string[],
    signal: AbortSignal | undefined,
  ): Promise<(ObjectInfo | undefined)[]> {
    const git = this.start(['cat-file', '--batch-check'], signal);
    git.stdin.end(names.map((name) => `${name}\n`).join(''));
    git.startTimer();
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of git.stdout) chunks.push(chunk as Buffer);
    } catch (error) {
      throw git.failed ?? error;
    }
    await git.finish();
    const lines = Buffer.concat(chunks).toString('utf8').split('\n');
    return names.map((_, index) => {
      const [oid = '', type = '', size = '0'] = (lines[index] ?? '').split(' ');
      return type === 'missing' || type === 'ambiguous' || oid === ''
        ? undefined
        : { oid, type, size: Number(size) };
    });
  }

  private async parseLog(args: readonly string[], signal: AbortSignal | undefined): Promise<CommitInfo[]> {
    const { stdout } = await this.run(args, signal);
    try {
      return parseCommitLog(stdout.toString('utf8'));
    } catch (error) {
      if (!(error instanceof CommitLogFormatError)) throw error;
      throw new GitError({
        code: 'GIT_OUTPUT_INVALID',
        args,
        reason: 'printed a log it cannot read',
        cause: error,
      });
    }
  }

  /** Runs `work` after every ref write queued before it, whatever their outcome. */
  private writingRefs<T>(work: () => Promise<T>): Promise<T> {
    const result = this.refWrites.then(work, work);
    this.refWrites = result.catch(() => undefined);
    return result;
  }

  private run(args: readonly string[], signal: AbortSignal | undefined, okExitCodes: readonly number[] = []) {
    return runGit(['--git-dir', this.dir, ...args], { ...this.commandOptions(signal), okExitCodes });
  }

  private start(args: readonly string[], signal: AbortSignal | undefined): GitProcess {
    return new GitProcess(['--git-dir', this.dir, ...args], this.commandOptions(signal));
  }

  private commandOptions(signal: AbortSignal | undefined): GitCommandOptions {
    return { env: this.env, timeoutMs: this.timeoutMs, signal };
  }

  /** Runs a command that reaches the remote: with its credentials (reach-remote.ts). */
  private reaching<T>(
    signal: AbortSignal | undefined,
    command: (options: GitCommandOptions) => Promise<T>,
  ): Promise<T> {
    return reachRemote(this.credentials, this.commandOptions(signal), command);
  }

  private notFound(subcommand: string, reason: string): GitError {
    return new GitError({ code: 'GIT_NOT_FOUND', args: ['--git-dir', this.dir, subcommand], reason });
  }
}

async function isBareRepository(dir: string): Promise<boolean> {
  const found = await stat(`${dir}/HEAD`).then(
    (stats) => stats.isFile(),
    () => false,
  );
  return (
    found &&
    (await stat(`${dir}/objects`).then(
      (stats) => stats.isDirectory(),
      () => false,
    ))
  );
}
