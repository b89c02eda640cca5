// Builds a commit in a bare repository without a working tree: `git fast-import` takes the parent,
// replaces one folder with the given files (the rest of the tree is the parent's), and writes the
// commit under a private ref. The files stream to git one at a time, so ten thousand pages cost
// little memory and no checkout.
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { type GitCommandOptions, GitProcess, runGit } from './git-process.js';
import { checkSha, gitPath } from './revision-names.js';

export interface FolderCommit {
  parent: string;
  /** The folder replaced, from the repository root ('' or '.' for the whole tree). */
  dir: string;
  /** Paths relative to `dir`, already checked safe (safeRelativePath). */
  files: ReadonlyMap<string, Buffer>;
  author: { name: string; email: string };
  message: string;
  date: Date;
}

export async function writeFolderCommit(
  gitDir: string,
  commit: FolderCommit,
  options: GitCommandOptions,
): Promise<string> {
  const ref = `refs/docsync/commit-${randomUUID()}`;
  const git = new GitProcess(['--git-dir', gitDir, 'fast-import', '--quiet', '--done'], options);
  git.startTimer();
  const output = (async () => {
    for await (const _ of git.stdout) {
      // fast-import prints nothing with --quiet; drain in case.
    }
  })();
  try {
    await writeStream(git.stdin, commit, ref);
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

async function writeStream(stdin: Writable, commit: FolderCommit, ref: string): Promise<void> {
  const write = async (chunk: Buffer | string) => {
    if (!stdin.write(chunk)) await once(stdin, 'drain');
  };
  const who = `${sanitise(commit.author.name)} <${sanitise(commit.author.email)}> ${Math.floor(commit.date.getTime() / 1000)} +0000`;
  const message = Buffer.from(commit.message, 'utf8');
  const dir = gitPath(commit.dir);
  await write(
    `commit ${ref}\nauthor ${who}\ncommitter ${who}\ndata ${message.length}\n${message.toString('utf8')}\nfrom ${checkSha(commit.parent)}\n`,
  );
  await write(dir === '' ? 'deleteall\n' : `D ${dir}\n`);
  for (const [path, data] of commit.files) {
    const full = dir === '' ? gitPath(path) : `${dir}/${gitPath(path)}`;
    await write(`M 100644 inline ${full}\ndata ${data.length}\n`);
    await write(data);
    await write('\n');
  }
  await write('\ndone\n');
}

/** Names and emails cannot carry the characters that end them in a commit header. */
function sanitise(text: string): string {
  return text.replace(/[<>\n\r\0]/g, '');
}
