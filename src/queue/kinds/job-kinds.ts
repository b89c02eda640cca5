// Every kind of job docsync queues: the registry of jobs/ has one processor for each.
import type { AnyJobKind } from '../job-kind.js';
import { checkLinksKind } from './check-links-kind.js';
import { exportSpaceKind } from './export-space-kind.js';
import { importContentKind } from './import-content-kind.js';
import { mergeChangeRequestKind } from './merge-change-request-kind.js';
import { pollChangeRequestsKind } from './poll-change-requests-kind.js';
import { pollGitKind } from './poll-git-kind.js';
import { pollSpaceKind } from './poll-space-kind.js';
import { reconcileVersionsKind } from './reconcile-versions-kind.js';
import { refreshOpenApiKind } from './refresh-openapi-kind.js';
import { reportCommitStatusKind } from './report-commit-status-kind.js';
import { sendNotificationKind } from './send-notification-kind.js';
import { updateChangeRequestKind } from './update-change-request-kind.js';

export const JOB_KINDS: readonly AnyJobKind[] = [
  pollGitKind,
  importContentKind,
  checkLinksKind,
  pollChangeRequestsKind,
  updateChangeRequestKind,
  mergeChangeRequestKind,
  refreshOpenApiKind,
  pollSpaceKind,
  exportSpaceKind,
  reconcileVersionsKind,
  reportCommitStatusKind,
  sendNotificationKind,
];
