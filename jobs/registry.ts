// Every processor docsync runs, one per kind of src/queue/kinds/job-kinds.ts. The workers of
// `docsync start` run exactly these (src/daemon/start-daemon.ts, its one user in src/); a job whose
// name is not here fails permanently with JOB_UNKNOWN rather than waiting forever.
import type { AnyJobDefinition } from '../src/queue/job-definition.js';
import { checkLinksJob } from './check-links.js';
import { exportSpaceJob } from './export-space.js';
import { importContentJob } from './import-content.js';
import { mergeChangeRequestJob } from './merge-change-request.js';
import { pollChangeRequestsJob } from './poll-change-requests.js';
import { pollGitJob } from './poll-git.js';
import { pollSpaceJob } from './poll-space.js';
import { reconcileVersionsJob } from './reconcile-versions.js';
import { refreshOpenApiJob } from './refresh-openapi.js';
import { reportCommitStatusJob } from './report-commit-status.js';
import { sendNotificationJob } from './send-notification.js';
import { updateChangeRequestJob } from './update-change-request.js';

export const JOBS: readonly AnyJobDefinition[] = [
  pollGitJob,
  importContentJob,
  checkLinksJob,
  pollChangeRequestsJob,
  updateChangeRequestJob,
  mergeChangeRequestJob,
  refreshOpenApiJob,
  pollSpaceJob,
  exportSpaceJob,
  reconcileVersionsJob,
  reportCommitStatusJob,
  sendNotificationJob,
];
