// A repository's branch heads as `git ls-remote --heads` and `git for-each-ref` print them (`<sha>
// <ref>` lines), read into one map, so that the remote's can be compared with the mirror's: when
// they are the same, a poll has nothing to fetch.

/** Branch name (without `refs/heads/`) to its commit. */
export type BranchHeads = ReadonlyMap<string, string>;

const HEAD_LINE = /^([0-9a-f]{40}|[0-9a-f]{64})\s+refs\/heads\/(.+)$/;

/** The heads in git's output; lines that name no branch are left out. */
export function parseBranchHeads(text: string): BranchHeads {
  const heads = new Map<string, string>();
  for (const line of text.split('\n')) {
    const match = HEAD_LINE.exec(line.trim());
    if (match?.[1] !== undefined && match[2] !== undefined) heads.set(match[2], match[1]);
  }
  return heads;
}

export function sameBranchHeads(a: BranchHeads, b: BranchHeads): boolean {
  if (a.size !== b.size) return false;
  for (const [branch, sha] of a) if (b.get(branch) !== sha) return false;
  return true;
}

/** Whether `sha` is the head of some branch: a commit the repository surely has. */
export function isBranchHead(heads: BranchHeads | undefined, sha: string): boolean {
  if (heads === undefined) return false;
  for (const head of heads.values()) if (head === sha) return true;
  return false;
}
