// Checks what callers hand to git as revisions and paths, so that no value can turn into an option
// (`--upload-pack=…`), another revision syntax (`main@{1}`, `a..b`) or a second line of batch input.
import { GitError } from './git-error.js';

// Hex object ids, abbreviated (at least 7) up to SHA-256's 64.
const SHA = /^[0-9a-f]{7,64}$/i;
// git check-ref-format's rules, simplified to what docs branches use: no control characters,
// spaces, `~^:?*[\`, `..`, `@{`, `//`, no leading `-` or `/`, no trailing `/`, `.` or `.lock`.
const BRANCH_FORBIDDEN = /[ ~^:?*[\\]|\.\.|@\{|\/\/|^[-/]|\/$|\.$|\.lock$|^@$/;

/** `sha` when it is a hex object id; else a GIT_INVALID_INPUT GitError. */
export function checkSha(sha: string): string {
  if (!SHA.test(sha)) throw invalid('rev-parse', `was given ${describe(sha)}, which is not a commit id`);
  return sha.toLowerCase();
}

/** `branch` (without `refs/heads/`) when git would accept it as a branch name. */
export function checkBranch(branch: string): string {
  if (branch === '' || BRANCH_FORBIDDEN.test(branch) || hasControl(branch)) {
    throw invalid('rev-parse', `was given ${describe(branch)}, which is not a branch name`);
  }
  return branch;
}

/**
 * `path` as git names it below a tree: '' for the root (`.` or empty), else `a/b` without `.`,
 * empty or trailing segments. A `..` segment or a control character is refused.
 */
export function gitPath(path: string): string {
  const segments = path.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..') || hasControl(path)) {
    throw invalid(
      'ls-tree',
      `was given the path ${describe(path)}, which leaves the repository or is not printable`,
    );
  }
  return segments.join('/');
}

/** The object name of `path` (see gitPath) at commit `sha`: `<sha>:<path>`, or its root tree. */
export function objectName(sha: string, path: string): string {
  return path === '' ? `${sha}^{tree}` : `${sha}:${path}`;
}

/** A pathspec for `path` (see gitPath): `.` for the whole repository. */
export function pathspec(path: string): string {
  return path === '' ? '.' : path;
}

function describe(value: string): string {
  return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
}

function invalid(subcommand: string, reason: string): GitError {
  return new GitError({ code: 'GIT_INVALID_INPUT', args: [subcommand], reason });
}

/** C0 controls and DEL: a newline would end a line of batch input early. */
function hasControl(value: string): boolean {
  return [...value].some((char) => char.charCodeAt(0) <= 0x1f || char.charCodeAt(0) === 0x7f);
}
