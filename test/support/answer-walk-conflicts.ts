// Where the interface text and the public document disagree on a member the interface names, the
// interface decides, and the document's complaint about that member is expected. Each entry names
// the endpoints, the exact complaint and why; nothing else is excused.
export interface DocumentConflict {
  /** Endpoints whose path starts with this. */
  pathPrefix: string;
  /** The complaint (a line of describeErrors), with `\d+` for list indexes. */
  error: RegExp;
  why: string;
}

export const DOCUMENT_CONFLICTS: readonly DocumentConflict[] = [
  {
    pathPrefix: '/v1/orgs/{organizationId}/translations',
    error: /^(\/items\/\d+)?\/object must be equal to one of the allowed values$/,
    why: 'the interface names the record `translation-settings`; the document only knows `translation`',
  },
  {
    pathPrefix: '/v1/orgs/{organizationId}/translations',
    error: /^(\/items\/\d+|\/) must have required property '(status|source|language|instructions|stats)'/,
    why: "the interface's translation settings (title, languages) are another record than the document's translation of one space into one language (source, language, status, stats)",
  },
];

/** The complaints about an answer of `path` that no conflict of the interface explains. */
export function unexplainedErrors(path: string, errors: readonly string[]): string[] {
  const conflicts = DOCUMENT_CONFLICTS.filter((conflict) => path.startsWith(conflict.pathPrefix));
  return errors.filter((error) => !conflicts.some((conflict) => conflict.error.test(error)));
}
