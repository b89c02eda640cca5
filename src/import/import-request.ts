// What an import needs and what it is asked to do: the daemon's job and `docsync once` build these,
// run-import.ts and import-into-change-request.ts read them (a file of its own, so that neither
// imports the other for its types).
import type { DocsApiClient } from '../api/docs-api-client.js';
import type { BundleStore } from '../artifacts/bundle-store.js';
import type { MappingConfig } from '../config/mapping-schema.js';
import type { GitMirror } from '../git/git-mirror.js';
import type { Logger } from '../log/create-logger.js';
import type { MappingStateStore } from '../state/mapping-state.js';
import type { WarningLogLevel } from './import-warnings.js';

export interface ImportDeps {
  api: DocsApiClient;
  state: MappingStateStore;
  mirrorFor: (repo: string) => GitMirror;
  artifacts: BundleStore;
  log: Logger;
  now: () => Date;
  signal: AbortSignal;
  dryRun: boolean;
  /**
   * A two-way mapping's import waits while the space holds edits not yet exported to git (the
   * daemon, whose space poll exports them); `once` has no space poll and imports at once.
   */
  awaitExports?: boolean;
  /**
   * Pages a dry run's preview lists (the counts cover all): `docsync once` prints MAX_LISTED_PAGES;
   * the daemon's job results and log lines keep LOGGED_PATHS, the default.
   */
  previewPages?: number;
  /**
   * The level of the docs folder's warning lines: `warn` by default (the daemon, whose log is where
   * people read them); `once` prints them in its report and logs them at `info`.
   */
  warningLogLevel?: WarningLogLevel;
  /** Queues the link check of the change request after an import (the daemon); `once` checks inline. */
  queueLinkCheck?: (check: { space: string; changeRequest: string; revision: string }) => Promise<void>;
}

export type ImportRequest =
  | {
      mapping: MappingConfig;
      source: 'git';
      sha: string;
      commit: { sha: string; subject: string; authorName: string };
    }
  | { mapping: MappingConfig; source: 'worktree'; path: string };
