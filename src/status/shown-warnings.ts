// How a mapping's import warnings are cut for people: how many of them a table lists, so that the
// status page and `docsync status` count alike. Where each one points is warningLocation
// (src/content/content-warning.ts).

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
