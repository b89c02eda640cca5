// What docsync posts about one commit: a state, one line saying the outcome, and where to look.
export const COMMIT_STATES = ['pending', 'success', 'failure', 'error'] as const;

export type CommitState = (typeof COMMIT_STATES)[number];

/** GitHub's limit on a status description; GitLab's is larger, the same line is posted to both. */
export const MAX_DESCRIPTION_LENGTH = 140;

export interface CommitStatus {
  state: CommitState;
  description: string;
  /** The change request, when the commit has one. */
  targetUrl?: string | undefined;
}

/** A description cut to the host's limit, ending with an ellipsis when it was longer. */
export function fitDescription(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= MAX_DESCRIPTION_LENGTH ? line : `${line.slice(0, MAX_DESCRIPTION_LENGTH - 1)}…`;
}
