// Builds a commit in a bare repository without a working tree: `git fast-import` takes the parent,
// writes the given files into one folder and deletes the given paths there; every other path of the
// parent's tree stays as it was. A file the parent has keeps its mode (a script stays executable),
// a new one is 100644. The commit goes under a private ref. The files stream to git in batches of
// a few hundred KiB, so a hundred thousand pages cost little memory, few awaits and no checkout; a
// file whose bytes the repository holds already as a blob (written as the space was read,
// blob-writer.ts) is named by its id, without its bytes.
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { type FolderBytes, isStoredBlob } from '../content/folder-bytes.js';
import { type GitCommandOptions, GitProcess, runGit } from './git-process.js';
import { checkSha, gitPath, pathspec } from './revision-names.js';

export interface FolderCommit {
  parent: string;
  /** The folder written, from the repository root ('' or '.' for the whole tree). */
  dir: string;
  /**
   * Files written, paths relative to `dir`, already checked safe (safeRelativePath): their bytes, or
   * a blob of this repository.
   */
  files: ReadonlyMap<string, FolderBytes>;
  /** Paths relative to `dir` to delete; a path not in the parent is no change. */
  remove?: Iterable<string>;
  author: { name: string; email: string };
  message: string;
  date: Date;
}

const REGULAR_FILE = '100644';
const EXECUTABLE_FILE = '100755';
/** Bytes gathered before one write to fast-import: one await per batch, not three per file. */
const BATCH_BYTES = 256 * 1024;
/**
 * glibc grows fast-import's heap a few KiB per object and trims it again: where `brk` is slow (some
 * VMs) a 100,000-page commit took minutes instead of seconds. A padded heap grows in large steps.
 */
const FAST_IMPORT_MALLOC = { MALLOC_TOP_PAD_: String(64 * 1024 * 1024) };

export async function writeFolderCommit(
  gitDir: string,
  commit: FolderCommit,
  options: GitCommandOptions,
): Promise<string> {
  const modes = await executables(gitDir, commit.parent, gitPath(commit.dir), options);
  const ref = `refs/docsync/commit-${randomUUID()}`;
  const git = new GitProcess(['--git-dir', gitDir, 'fast-import', '--quiet', '--done'], {
    ...options,
    env: { ...options.env, ...FAST_IMPORT_MALLOC },
  });
  git.startTimer();
  const output = (async () => {
    for await (const _ of git.stdout) {
      // fast-import prints nothing with --quiet; drain in case.
    }
  })();
  try {
    await writeStream(git.stdin, commit, ref, modes);
    git.stdin.end();
    await output;
    await git.finish();
    const { stdout } = await runGit(
      ['--git-dir', gitDir, 'rev-parse', '--verify', `${ref}^{commit}`],
      options,
    );
    return stdout.toString('utf8').trim();
  } catch (error) {
    throw git.failed ?? error;
  } finally {
    git.close();
    await runGit(['--git-dir', gitDir, 'update-ref', '-d', ref], options).catch(() => undefined);
  }
}

/** Full paths of the executable files below `dir` at `parent`: the one mode a written file keeps. */
async function executables(
  gitDir: string,
  parent: string,
  dir: string,
  options: GitCommandOptions,
): Promise<Set<string>> {
  // A pathspec, unlike `<sha>:<dir>`, lists nothing rather than failing when the folder is not there.
  const { stdout } = await runGit(
    [
      '--git-dir',
      gitDir,
      '--literal-pathspecs',
      'ls-tree',
      '-r',
      '-z',
      checkSha(parent),
      '--',
      pathspec(dir),
    ],
    options,
  );
  const found = new Set<string>();
  for (const record of stdout.toString('utf8').split('\0')) {
    const tab = record.indexOf('\t');
    if (tab !== -1 && record.startsWith(`${EXECUTABLE_FILE} `)) found.add(record.slice(tab + 1));
  }
  return found;
}

async function writeStream(
  stdin: Writable,
  commit: FolderCommit,
  ref: string,
  executable: ReadonlySet<string>,
): Promise<void> {
  // Chunks are gathered and written corked (one writev, no copy), awaiting only a full pipe.
  const pending: (Buffer | string)[] = [];
  let pendingBytes = 0;
  const add = (chunk: Buffer | string) => {
    pending.push(chunk);
    pendingBytes += chunk.length;
  };
  /** Writes what is gathered; false once git stopped reading (its exit then tells why). */
  const flush = async (): Promise<boolean> => {
    stdin.cork();
    let ready = true;
    for (const chunk of pending) ready = stdin.write(chunk);
    stdin.uncork();
    pending.length = 0;
    pendingBytes = 0;
    if (stdin.destroyed) return false;
    if (!ready) await once(stdin, 'drain');
    return true;
  };
  const who = `${sanitise(commit.author.name)} <${sanitise(commit.author.email)}> ${Math.floor(commit.date.getTime() / 1000)} +0000`;
  const message = Buffer.from(commit.message, 'utf8');
  const dir = gitPath(commit.dir);
  const full = (path: string) => (dir === '' ? gitPath(path) : `${dir}/${gitPath(path)}`);
  add(
    `commit ${ref}\nauthor ${who}\ncommitter ${who}\ndata ${message.length}\n${message.toString('utf8')}\nfrom ${checkSha(commit.parent)}\n`,
  );
  for (const path of commit.remove ?? []) {
    if (!commit.files.has(path)) add(`D ${full(path)}\n`);
    if (pendingBytes >= BATCH_BYTES && !(await flush())) return;
  }
  for (const [path, data] of commit.files) {
    const target = full(path);
    const mode = executable.has(target) ? EXECUTABLE_FILE : REGULAR_FILE;
    if (isStoredBlob(data)) add(`M ${mode} ${checkSha(data.blob)} ${target}\n`);
    else {
      add(`M ${mode} inline ${target}\ndata ${data.length}\n`);
      add(data);
      add('\n');
    }
    if (pendingBytes >= BATCH_BYTES && !(await flush())) return;
  }
  add('\ndone\n');
  await flush();
}

/** Names and emails cannot carry the characters that end them in a commit header. */
function sanitise(text: string): string {
  return text.replace(/[<>\n\r\0]/g, '');
}
