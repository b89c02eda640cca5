// How the points of the flow ask for a commit's status: only for a mapping with a `report` block,
// never in a dry run, and never at the cost of the work that asks. A report that cannot be queued
// is a warning; the import, link check or merge goes on.

import {
  type CommitStatusEvent,
  type ReportCommitStatusPayload,
  reportCommitStatusKind,
} from '../../jobs/report-commit-status/report-commit-status-kind.js';
import type { Config } from '../config/config-schema.js';
import { mappingByName } from '../config/mapping-by-name.js';
import type { MappingConfig } from '../config/mapping-schema.js';
import { DocsyncError } from '../errors/docsync-error.js';
import type { Logger } from '../log/create-logger.js';
import type { Queues } from '../queue/queues.js';
import { isPermanent } from '../queue/retry-policy.js';
import type { MappingStateStore } from '../state/mapping-state.js';

export interface QueueCommitStatusContext {
  config: Pick<Config, 'mappings'>;
  queues: Pick<Queues, 'get'>;
  stores: { mappings: MappingStateStore };
  log: Logger;
  dryRun: boolean;
}

export async function queueCommitStatus(
  ctx: QueueCommitStatusContext,
  mapping: Pick<MappingConfig, 'name' | 'report'>,
  report: Omit<ReportCommitStatusPayload, 'mapping'>,
): Promise<void> {
  if (mapping.report === undefined || ctx.dryRun) return;
  try {
    await reportCommitStatusKind.enqueue(ctx.queues, { mapping: mapping.name, ...report });
  } catch (error) {
    ctx.log.warn(
      { err: error, mapping: mapping.name, sha: report.sha, event: report.event },
      'commit status not queued',
    );
  }
}

/**
 * The status of the commit a revision of a space holds, found by the revision's origin (an import,
 * or an update that carried it): a link check of a change request, a merge.
 */
export async function queueCommitStatusOfRevision(
  ctx: QueueCommitStatusContext,
  space: string,
  revision: string,
  report: Pick<ReportCommitStatusPayload, 'event' | 'changeRequest'>,
): Promise<void> {
  const reporting = ctx.config.mappings.filter(
    (mapping) => mapping.space === space && mapping.report !== undefined,
  );
  if (reporting.length === 0 || ctx.dryRun) return;
  try {
    const origin = await ctx.stores.mappings.revisionOrigin(space, revision);
    const mapping = reporting.find((item) => item.name === origin?.mapping);
    if (origin?.sha === undefined || mapping === undefined) return;
    await queueCommitStatus(ctx, mapping, {
      sha: origin.sha,
      ...report,
      ...(report.changeRequest === undefined && origin.changeRequest !== undefined
        ? { changeRequest: origin.changeRequest }
        : {}),
    });
  } catch (error) {
    ctx.log.warn({ err: error, space, revision, event: report.event }, 'commit status not queued');
  }
}

/** The event an import's outcome is for its commit; none for a dry run, which posts nothing. */
const IMPORT_EVENTS: Readonly<Record<string, CommitStatusEvent | undefined>> = {
  imported: 'imported',
  unchanged: 'imported',
  superseded: 'superseded',
  paused: 'paused',
  deferred: 'deferred',
};

/** After an import of a commit ran through: imported (into which change request), deferred, paused. */
export async function queueImportStatus(
  ctx: QueueCommitStatusContext,
  mapping: Pick<MappingConfig, 'name' | 'report'>,
  sha: string,
  outcome: { result: string; changeRequest?: { id: string } | undefined },
): Promise<void> {
  const event = IMPORT_EVENTS[outcome.result];
  if (event === undefined) return;
  const changeRequest = event === 'imported' ? outcome.changeRequest?.id : undefined;
  await queueCommitStatus(ctx, mapping, {
    sha,
    event,
    ...(changeRequest === undefined ? {} : { changeRequest }),
  });
}

/**
 * After a failed attempt of a commit's import: `failed` once no attempt is left (or none would
 * help); while the queue retries it, the commit stays pending.
 */
export async function queueFailedImportStatus(
  ctx: QueueCommitStatusContext & { job: { attempt: number; maxAttempts: number } },
  mappingName: string,
  sha: string,
  error: unknown,
): Promise<void> {
  const mapping = mappingByName(ctx.config.mappings, mappingName);
  if (mapping === undefined) return;
  if (!isPermanent(error) && ctx.job.attempt < ctx.job.maxAttempts) return;
  const failureCode = error instanceof DocsyncError ? error.code : 'FAILED';
  await queueCommitStatus(ctx, mapping, { sha, event: 'failed', failureCode });
}
