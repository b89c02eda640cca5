// The contents of many files of one commit from one `git cat-file --batch`: the commit first (an
// unknown commit is a GIT_NOT_FOUND error), then each `<sha>:<path>`, a path with no file there (or
// a folder) answering undefined. One git process however many files, where reading each file by
// itself costs two.
import { GitError } from './git-error.js';
import type { StartGit } from './git-object-streams.js';
import { GitOutputReader } from './git-output-reader.js';
import type { GitProcess } from './git-process.js';
import { gitPath, objectName } from './revision-names.js';

const NEWLINE = 0x0a;
// `<oid> SP <type> SP <size>`; anything else names what git could not find (`<name> missing`).
const FOUND = /^[0-9a-f]{40,64} ([a-z]+) (\d+)$/;

/** Each path's content at `sha` (a checked id), undefined when it is no file there. */
export async function readFilesAt(
  start: StartGit,
  sha: string,
  paths: readonly string[],
): Promise<Map<string, Buffer | undefined>> {
  const files = new Map<string, Buffer | undefined>();
  const asked: { path: string; name: string }[] = [];
  for (const path of new Set(paths)) {
    const name = gitName(sha, path);
    if (name === undefined) files.set(path, undefined);
    else asked.push({ path, name });
  }
  const git = start(['cat-file', '--batch', '--buffer']);
  try {
    const names = [`${sha}^{commit}`, ...asked.map(({ name }) => name)];
    git.stdin.end(`${names.join('\n')}\n`);
    git.startTimer();
    const reader = new GitOutputReader(git);
    const commit = await readAnswer(git, reader);
    if (commit?.type !== 'commit') {
      throw new GitError({ code: 'GIT_NOT_FOUND', args: git.args, reason: `has no commit ${sha}` });
    }
    for (const { path } of asked) {
      const answer = await readAnswer(git, reader);
      files.set(path, answer?.type === 'blob' ? answer.data : undefined);
    }
    await git.finish();
    return files;
  } catch (error) {
    throw git.failed ?? error;
  } finally {
    git.close();
  }
}

/** The path's object name, or undefined for a path git cannot be asked for on one line. */
function gitName(sha: string, path: string): string | undefined {
  try {
    const checked = gitPath(path);
    return checked === '' ? undefined : objectName(sha, checked);
  } catch {
    return undefined;
  }
}

async function readAnswer(
  git: GitProcess,
  reader: GitOutputReader,
): Promise<{ type: string; data: Buffer } | undefined> {
  const header = reader.takeLine(NEWLINE) ?? (await reader.readUntil(NEWLINE))?.toString('latin1');
  if (header === undefined) throw git.failed ?? git.fail('GIT_OUTPUT_INVALID', 'ended before all files');
  const found = FOUND.exec(header);
  if (found === null) return undefined;
  const size = Number(found[2]);
  // The content and the newline after it in one read.
  const data = (reader.takeExactly(size + 1) ?? (await reader.readExactly(size + 1))).subarray(0, size);
  return { type: found[1] ?? '', data };
}
