// Every processor docsync runs, one per job folder of jobs/ (its kind beside it). The workers of
// `docsync start` run exactly these (src/daemon/start-work.ts, its one user in src/); a job whose
// name is not here fails permanently with JOB_UNKNOWN rather than waiting forever.
import type { AnyJobDefinition } from '../src/queue/job-definition.js';
import { checkLinksJob } from './check-links/check-links-job.js';
import { exportSpaceJob } from './export-space/export-space-job.js';
import { importContentJob } from './import-content/import-content-job.js';
import { mergeChangeRequestJob } from './merge-change-request/merge-change-request-job.js';
import { pollChangeRequestsJob } from './poll-change-requests/poll-change-requests-job.js';
import { pollGitJob } from './poll-git/poll-git-job.js';
import { pollSpaceJob } from './poll-space/poll-space-job.js';
import { reconcileVersionsJob } from './reconcile-versions/reconcile-versions-job.js';
import { refreshOpenApiJob } from './refresh-openapi/refresh-openapi-job.js';
import { reportCommitStatusJob } from './report-commit-status/report-commit-status-job.js';
import { sendNotificationJob } from './send-notification/send-notification-job.js';
import { updateChangeRequestJob } from './update-change-request/update-change-request-job.js';

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
