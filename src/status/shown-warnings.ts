// How a mapping's import warnings are cut for people: where each one points, and how many of them a
// table or a comment lists. Shared by the status page, `docsync status` and the change request's
// comment, so that the three count alike.

/** What locates a warning: a file of the docs folder and, for a warning about one line, its line. */
export interface WarningPlace {
  file: string;
  line?: number | undefined;
}

/** `SUMMARY.md:12`, or the file alone for a warning about a whole file (an unlisted page). */
export function warningWhere(warning: WarningPlace): string {
  return warning.line === undefined ? warning.file : `${warning.file}:${warning.line}`;
}

export interface ShownWarnings<W> {
  shown: W[];
  /** How many are not shown: listed ones cut here, and those the state never kept (past its limit). */
  hidden: number;
  /** How many the full list (the state, /status) holds: more than `shown` when it is worth pointing to. */
  listed: number;
  /** How many there were in all. */
  count: number;
}

/** The first `limit` of `listed`, out of `count` warnings in all (the state keeps only the first ones). */
export function shownWarnings<W>(listed: readonly W[], count: number, limit: number): ShownWarnings<W> {
  const shown = listed.slice(0, Math.max(0, limit));
  const all = Math.max(count, listed.length);
  return { shown, hidden: all - shown.length, listed: listed.length, count: all };
}
