// What a git poll does, decided from what it read: nothing while paused; pause when the branch no
// longer contains the last imported commit (rewritten history is never imported silently); import
// the newest head when commits by people touched the folder since the last import (intermediate
// commits coalesce into that one import); nothing when only docsync's own commits did.
import { isDocsyncCommit } from '../git/docsync-trailer.js';

export interface PolledCommit {
  sha: string;
  subject: string;
  authorName: string;
  /** The committer date; the sync lag of the import it leads to is measured from it. */
  committedAt?: Date;
  trailers: Record<string, string[]>;
}

export interface GitPollInput {
  paused: boolean;
  lastImportedSha: string | undefined;
  head: string;
  /** Whether `head` contains `lastImportedSha`; undefined when nothing was imported yet. */
  headContainsLast: boolean | undefined;
  /** Commits since the last import (all history before the first one) that touch the folder, newest first. */
  commits: readonly PolledCommit[];
}

export type GitPollDecision =
  | { kind: 'paused' }
  | { kind: 'pause'; detail: string }
  | { kind: 'up-to-date' }
  | { kind: 'only-docsync-commits'; skipped: number }
  | { kind: 'import'; sha: string; commit: PolledCommit; coalesced: number };

export function planGitPoll(input: GitPollInput): GitPollDecision {
  if (input.paused) return { kind: 'paused' };
  if (input.lastImportedSha !== undefined && input.headContainsLast === false) {
    return {
      kind: 'pause',
      detail: `the branch no longer contains ${input.lastImportedSha.slice(0, 12)}, the last imported commit`,
    };
  }
  if (input.lastImportedSha === input.head) return { kind: 'up-to-date' };
  const byPeople = input.commits.filter((commit) => !isDocsyncCommit(commit));
  const newest = byPeople[0];
  if (newest === undefined) {
    return input.commits.length === 0
      ? { kind: 'up-to-date' }
      : { kind: 'only-docsync-commits', skipped: input.commits.length };
  }
  // The head's folder is imported, not the newest commit's: it also holds docsync's own later
  // commits, which came from the space and must not be undone by the import.
  return { kind: 'import', sha: input.head, commit: newest, coalesced: byPeople.length };
}
