// What docsync remembers about each mapping between runs (in Redis for the daemon, in memory for
// `docsync once`): the last imported commit and content, the change request it keeps, whether the
// mapping is paused and why, and the last outcome and error, for /status. Read back through zod.
import { z } from 'zod';
import { contentWarningSchema } from '../content/content-warning.js';

export const pauseSchema = z.object({
  reason: z.enum(['force-push', 'manual']),
  detail: z.string(),
  at: z.string(),
});

export const importOutcomeSchema = z.object({
  at: z.string(),
  result: z.enum(['imported', 'unchanged', 'dry-run']),
  sha: z.string().optional(),
  source: z.enum(['git', 'worktree']),
  changeRequest: z.object({ id: z.string(), number: z.number(), url: z.string().optional() }).optional(),
  revision: z.string().optional(),
  importedResources: z.number().optional(),
  totalResources: z.number().optional(),
  /** What the import read past (SUMMARY.md lines, files left out): the first MAX_STORED_WARNINGS. */
  warnings: z.array(contentWarningSchema).optional(),
  /** How many warnings there were in all, when more than were stored. */
  warningCount: z.number().int().nonnegative().optional(),
});

/** Warnings kept per import in state: enough to act on, small enough for every /status read. */
export const MAX_STORED_WARNINGS = 50;

export const exportOutcomeSchema = z.object({
  at: z.string(),
  result: z.enum(['committed', 'unchanged', 'conflict', 'dry-run']),
  revision: z.string(),
  sha: z.string().optional(),
  branch: z.string().optional(),
  files: z.number().optional(),
  /** A conflict's cause: paths git and the space both changed, differently, since the last export. */
  changedInGit: z.array(z.string()).optional(),
  /** Paths only git changed since the last export: git's version was kept. */
  keptFromGit: z.array(z.string()).optional(),
  /** With a conflict: the commit of the space's other changes pushed to the mapping's branch. */
  committed: z.string().optional(),
  /**
   * Committed or unchanged: the git tree of the mapping's folder on the branch after the export.
   * With `settings` and `base`, what lets an export of the same revision over the same folder
   * return without reading the space's content (src/export/plan-export.ts, lastSettledExport).
   */
  tree: z.string().optional(),
  /** The key of the mapping's settings the export's folder depends on (exportSettingsKey). */
  settings: z.string().optional(),
  /** The export base the export left (`exportBase`): another writer of it makes the next run a full one. */
  base: z.string().optional(),
});

export const mergeOutcomeSchema = z.object({
  at: z.string(),
  changeRequest: z.object({ id: z.string(), number: z.number(), subject: z.string().optional() }),
  revision: z.string(),
});

export const failureSchema = z.object({
  at: z.string(),
  code: z.string(),
  message: z.string(),
  /** What to check or do about it (src/state/failure-hint.ts); none in state written before hints. */
  hint: z.string().optional(),
  /**
   * A failure for good of work that backs off (src/queue/work-back-off.ts): when it is tried again
   * at the soonest, ISO 8601. A start of docsync or `docsync retry` tries it at once.
   */
  nextTry: z.string().optional(),
});

/** The failures in a row of one job of a mapping (or of a spec's refresh), until its next success. */
export const failureRunSchema = z.object({
  count: z.number().int().positive(),
  /** When the first of them happened. */
  since: z.string(),
  last: failureSchema,
});

export const pendingConflictSchema = z.object({
  sha: z.string(),
  branch: z.string(),
  revision: z.string(),
  /** The commit equal to the space in every file, the base once the branch is merged. */
  resolvedBase: z.string().optional(),
});

/**
 * An export's outcome and state, saved before it pushes its commit to the mapping's branch: once
 * that commit is in the branch, they are the state, even when the export stopped before saving them.
 */
export const exportAheadSchema = z.object({
  /** The commit pushed to the mapping's branch. */
  sha: z.string(),
  lastExport: exportOutcomeSchema,
  exportBase: z.string(),
  conflictParent: z.string().nullable(),
  pendingConflict: pendingConflictSchema.nullable(),
});

export const mappingStateSchema = z.object({
  /** The commit whose folder content the change request holds. */
  lastImportedSha: z.string().optional(),
  /**
   * Content identity of the last import (contentKey of the bundle's content hash), the same for a
   * working copy and for the commit holding the same files. State written before it held a git
   * tree id here, which the import still recognizes.
   */
  lastContent: z.string().optional(),
  /** The git tree id of the folder last imported or found unchanged: skips bundling the same tree. */
  lastTree: z.string().optional(),
  /**
   * The last import came from a working copy, and no commit holding its content was seen since:
   * the change request's revision names no commit yet (attach-commit-to-worktree-import.ts).
   */
  contentFromWorktree: z.literal(true).optional(),
  /** The open change request docsync keeps for this mapping and branch. */
  changeRequestId: z.string().optional(),
  /**
   * The git poll looked for its import state in the service once (src/recovery/): whatever it found
   * is in the fields above, and it does not look again while they are empty (a mapping that never
   * imported, or whose last imported commit `docsync resume` dropped after a force-push).
   */
  importsLookedUp: z.literal(true).optional(),
  paused: pauseSchema.optional(),
  lastImport: importOutcomeSchema.optional(),
  lastError: failureSchema.optional(),
  /**
   * By job name (`poll-git`, `import-content`...): the failures in a row of each job of the mapping
   * that failed since it last succeeded. The mapping's health (src/status/health-state.ts) reads them.
   */
  failures: z.record(z.string(), failureRunSchema).optional(),
  /** The last change request of this mapping docsync merged. */
  lastMerge: mergeOutcomeSchema.optional(),
  /** Space to git: the last space revision the space poll handled (exported, or docsync's own). */
  lastSeenRevision: z.string().optional(),
  /** Space to git: the last revision the space poll queued an export for (an edit made in the service). */
  exportQueued: z.string().optional(),
  /**
   * Space to git: the queued revision of the last export job that finished. While it differs from
   * `exportQueued`, an edit may be in the space and not in git, whatever revision the space is at now
   * (a merge of docsync's change request carries what the main content held).
   */
  exportFinished: z.string().optional(),
  /**
   * Space to git: the commit whose folder the space's content was last known to equal (docsync's
   * last export, or the commit of a merged import). Git changing the folder since means a conflict.
   */
  exportBase: z.string().optional(),
  /**
   * When the export base is a commit docsync made in its git mirror (the space kept a file git alone
   * changed, or a file is in conflict): the last branch commit the space equalled in every file.
   * Conflict commits go on it, so that merging them shows each conflict and undoes nothing of git's.
   */
  conflictParent: z.string().optional(),
  lastExport: exportOutcomeSchema.optional(),
  /** A conflict branch not yet merged: once its commit is in the branch, it is the new base. */
  pendingConflict: pendingConflictSchema.optional(),
  /** An export's state written ahead of its push (see exportAheadSchema). */
  exportAhead: exportAheadSchema.optional(),
});

export type MappingState = z.infer<typeof mappingStateSchema>;
export type ImportOutcome = z.infer<typeof importOutcomeSchema>;
export type Failure = z.infer<typeof failureSchema>;
export type FailureRun = z.infer<typeof failureRunSchema>;
export type MergeOutcome = z.infer<typeof mergeOutcomeSchema>;
export type ExportOutcome = z.infer<typeof exportOutcomeSchema>;
export type ExportAhead = z.infer<typeof exportAheadSchema>;
export type Pause = z.infer<typeof pauseSchema>;

/** Fields to set; `null` removes one. */
export type MappingStatePatch = { [K in keyof MappingState]?: MappingState[K] | null };

/** Where a revision of a space came from, when docsync made it: loop prevention for space to git. */
export interface RevisionOrigin {
  kind: 'import' | 'update' | 'merge';
  mapping: string;
  sha?: string | undefined;
  /** The change request the revision belongs to (import, update) or that was merged into it (merge). */
  changeRequest?: string | undefined;
}

/**
 * A change request docsync put content into (an import, an update), kept until the space poll saw
 * it merged or closed: whoever merges it, the merged revision is docsync's own when its content was.
 */
export interface TrackedChangeRequest {
  id: string;
  /** The last revision docsync made in it. */
  revision?: string | undefined;
  /** The commit whose folder that revision holds; none for a working copy. */
  sha?: string | undefined;
  /** When docsync last wrote it, or when it was settled. */
  at: string;
  /** Seen merged or closed: not read again. */
  settled?: boolean | undefined;
}

/** Change requests tracked per mapping: docsync keeps one open at a time, older ones only wait to be seen. */
export const MAX_TRACKED_CHANGE_REQUESTS = 20;

export interface MappingStateStore {
  get(mapping: string): Promise<MappingState>;
  update(mapping: string, patch: MappingStatePatch): Promise<void>;
  /** One more failure in a row of the mapping's `job`; it becomes the mapping's `lastError`. */
  recordFailure(mapping: string, job: string, failure: Failure): Promise<void>;
  /**
   * A success of the mapping's `job`: its failures in a row end. With the last job that failed,
   * `lastError` goes too: it no longer says what is wrong.
   */
  recordSuccess(mapping: string, job: string): Promise<void>;
  /**
   * Remembers that a revision of a space came from docsync itself, for loop prevention. An import or
   * update origin naming its change request also tracks that change request for its mapping.
   */
  recordRevisionOrigin(space: string, revision: string, origin: RevisionOrigin): Promise<void>;
  /** The origin recorded for a revision, if docsync made it. */
  revisionOrigin(space: string, revision: string): Promise<RevisionOrigin | undefined>;
  /** The mapping's tracked change requests, settled ones included, newest first. */
  trackedChangeRequests(mapping: string): Promise<TrackedChangeRequest[]>;
  /**
   * Tracks a change request docsync found again from the service after its state was lost (its
   * marker, and the commit its subject names): with no revision of docsync's known, its merge is
   * exported on that commit as the base, never taken for docsync's own content unread.
   */
  trackChangeRequest(mapping: string, id: string, sha: string | undefined): Promise<void>;
  /** A tracked change request seen merged or closed: kept as settled so that it is not read again. */
  settleChangeRequest(mapping: string, id: string): Promise<void>;
}
