// The export base once a change request of docsync's import was merged in the service. The space
// then equals the imported commit's folder, plus whatever the main content held that the change
// request did not change: the service edits docsync had exported meanwhile. So when the current
// base descends from the imported commit through docsync's own commits alone, the newest export
// among them is what the space equals, and it is the base: moving back to the imported commit would
// make those exports look like git's changes, and the next edit of one of their files a conflict.
// (A base docsync made and never pushed holds the space's version of files git alone changed; after
// the merge the space holds git's, as the export commit does.)
import { isDocsyncCommit } from '../git/docsync-trailer.js';
import type { GitMirror } from '../git/git-mirror.js';
import { isSyntheticBase } from './synthetic-base.js';

/** At most this many commits are read between the two; past it, the imported commit is the base. */
const MAX_COMMITS = 50;

export async function baseAfterMerge(
  mirror: Pick<GitMirror, 'isAncestor' | 'commitsTouching'>,
  dir: string,
  imported: string,
  current: string | undefined,
  signal: AbortSignal,
): Promise<string> {
  if (current === undefined || current === imported) return imported;
  try {
    if (!(await mirror.isAncestor(imported, current, signal))) return imported;
    const between = await mirror.commitsTouching({ from: imported, to: current }, dir, {
      limit: MAX_COMMITS + 1,
      signal,
    });
    if (between.length > MAX_COMMITS) return imported;
    const pushed = between.filter((commit) => !isSyntheticBase(commit));
    if (!pushed.every(isDocsyncCommit)) return imported;
    return pushed[0]?.sha ?? imported;
  } catch {
    // A base the mirror lacks (its data folder made anew): the imported commit, as before.
    return imported;
  }
}
