// The trailer docsync writes on the commits it makes (space to git), and the rule that reads it back:
// the export writes it, the git poll skips the commits that carry it, so docsync never imports itself.

/** The trailer key: `Docsync-Revision: <revision id>` ends the message of every commit docsync makes. */
export const DOCSYNC_TRAILER = 'Docsync-Revision';

/** Trailer keys are compared without case, as git does; the commit log gives them lower-cased. */
export function isDocsyncCommit(commit: { trailers: Readonly<Record<string, readonly string[]>> }): boolean {
  return Object.entries(commit.trailers).some(
    ([key, values]) => key.toLowerCase() === DOCSYNC_TRAILER.toLowerCase() && values.length > 0,
  );
}
