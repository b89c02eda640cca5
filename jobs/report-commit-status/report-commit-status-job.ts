// report-commit-status: posts the status `docsync` of an imported commit to the mapping's git host
// (GitHub or GitLab, its `report` block), worded from what is true when the job runs: importing,
// imported into change request #4 with its broken links and the approvals it needs, merged, or
// failed. Retried with backoff by the queue; a failure never touches the import, and shows in the
// mapping's health as this job's failures in a row, with a hint naming the setting to check. On
// GitHub, a mapping whose git.auth is a GitHub App may post with the app's installation token.

import { describeCommitStatus } from '../../src/commit-status/describe-commit-status.js';
import { postCommitStatus } from '../../src/commit-status/post-commit-status.js';
import { readCommitStatusFacts } from '../../src/commit-status/read-commit-status-facts.js';
import { statusTarget } from '../../src/commit-status/status-request.js';
import { statusToken } from '../../src/commit-status/status-token.js';
import { jobId } from '../../src/queue/job-id.js';
import { defineJob } from '../define-job.js';
import { requireMapping } from '../job-requirements.js';
import type { ServicesOf } from '../job-services.js';
import { reportCommitStatusKind } from './report-commit-status-kind.js';

const NEEDS = ['config', 'api', 'stores', 'mirrorFor', 'dryRun'] as const;

/** What a report reads (the service, docsync's state) and posts with (the mirror's credentials). */
export type ReportCommitStatusServices = ServicesOf<typeof NEEDS>;

export const reportCommitStatusJob = defineJob(reportCommitStatusKind, NEEDS, {
  // One report of a commit at a time, in any process: a pending one read before the import ended
  // must not land after the status that says how it ended.
  lockKey: (payload) => jobId('commit-status', payload.mapping, payload.sha),
  async run(ctx, payload) {
    const mapping = requireMapping(ctx, payload.mapping);
    const { report } = mapping;
    if (report === undefined) return { result: 'not-configured' };
    if (ctx.dryRun) return { result: 'dry-run' };
    const facts = await readCommitStatusFacts(
      {
        api: ctx.api,
        serviceBaseUrl: ctx.config.service?.baseUrl,
        mappings: ctx.stores.mappings,
        links: ctx.stores.links,
        signal: ctx.signal,
      },
      mapping,
      payload,
    );
    const status = describeCommitStatus(facts);
    const log = ctx.log.child({ mapping: mapping.name, sha: payload.sha, event: payload.event });
    if (status === undefined) {
      log.debug('commit already imported: its pending status is not posted');
      return { result: 'skipped' };
    }
    // A report.github without tokenEnv posts with the repository's GitHub App (git.auth.githubApp),
    // the same credentials, and so the same cached installation token, as its mirror's git commands.
    const token = statusToken(report, ctx.mirrorFor(mapping.git.repo).credentials);
    const posted = await postCommitStatus(report, payload.sha, status, ctx.signal, { token });
    const fields = { target: statusTarget(report), state: status.state, description: status.description };
    if ('unchanged' in posted) {
      log.info(fields, 'commit status already in that state on the git host');
      return { result: 'unchanged', state: status.state };
    }
    log.info(fields, 'commit status posted');
    return { result: 'posted', state: status.state, description: status.description, id: posted.id };
  },
});
