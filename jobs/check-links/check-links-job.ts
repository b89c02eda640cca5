// check-links: the link check of a change request (after an import, an update) or of a space's
// main content (after a merge, on a schedule), recorded per target with the service's stats. Each
// link that broke or was fixed since the last check of the same target gets one log line, the
// links still broken one line with their count; on a change request, docsync's one link comment
// is kept in step when the mapping asks for it, with the warnings of the import that made the
// revision beside the broken links.

import { queueCommitStatusOfRevision } from '../../src/commit-status/queue-commit-status.js';
import { diffBrokenLinks } from '../../src/import/diff-broken-links.js';
import type { BrokenLink } from '../../src/links/broken-link.js';
import {
  type ImportWarnings,
  importWarningsFor,
  NO_IMPORT_WARNINGS,
} from '../../src/links/import-warnings-for.js';
import { keepLinkComment, type LinkCommentOutcome } from '../../src/links/link-comment.js';
import { linkPlace } from '../../src/links/link-place.js';
import { placeCheckInGit } from '../../src/links/place-check-in-git.js';
import { readLinkCheck } from '../../src/links/read-link-check.js';
import { defineJob } from '../define-job.js';
import { requireApi } from '../job-requirements.js';
import type { ServicesOf } from '../job-services.js';
import { checkLinksKind, LATEST_REVISION } from './check-links-kind.js';

/** Change requests whose thread is still worth writing to. */
const COMMENTED_STATUSES: ReadonlySet<string> = new Set(['open', 'draft']);

const NEEDS = ['config', 'api', 'stores', 'mirrorFor', 'queues', 'now', 'dryRun'] as const;

/** What a link check touches: the service, the stores, the mirrors that place links in git, the queues. */
export type CheckLinksServices = ServicesOf<typeof NEEDS>;

export const checkLinksJob = defineJob(checkLinksKind, NEEDS, {
  // Checks of one change request run one at a time: two at once could both find no comment and
  // both post one, and a slow check of an older revision could record its links over a newer one.
  // A check only reads the space: it takes the space's read lock, so that it never holds back the
  // import that changes the space (the import queues the next check when it is done).
  lockKey: (payload) => (payload.changeRequest !== undefined ? payload.space : undefined),
  lock: 'read',
  async run(ctx, payload) {
    const api = requireApi(ctx);
    const store = ctx.stores.links;
    const checked = await readLinkCheck(
      api,
      { space: payload.space, changeRequest: payload.changeRequest },
      ctx.signal,
    );
    const log = ctx.log.child({
      space: payload.space,
      cr: payload.changeRequest,
      revision: checked.revision,
    });
    const read = {
      ...checked,
      broken: await placeCheckInGit(
        {
          config: ctx.config,
          mappings: ctx.stores.mappings,
          mirrorFor: ctx.mirrorFor,
          log,
          signal: ctx.signal,
        },
        payload.space,
        checked,
      ),
    };
    if (payload.revision !== LATEST_REVISION && payload.revision !== read.revision)
      log.debug({ queuedFor: payload.revision }, 'link check reads a newer revision than queued for');

    const previous = await store.get(payload.space, payload.changeRequest);
    const diff = diffBrokenLinks(previous?.broken ?? [], read.broken);
    for (const link of diff.broken)
      log.warn(
        { change: 'new', page: link.pagePath ?? link.pageTitle, target: link.target, ...placeFields(link) },
        'link broken',
      );
    for (const link of diff.fixed)
      log.info({ change: 'fixed', page: link.pagePath ?? link.pageTitle, target: link.target }, 'link fixed');
    if (diff.stillBroken.length > 0) log.info({ count: diff.stillBroken.length }, 'links still broken');

    await store.set(payload.space, payload.changeRequest, {
      at: ctx.now().toISOString(),
      revision: read.revision,
      broken: read.broken,
      stats: read.stats,
    });
    if (payload.changeRequest !== undefined)
      await queueCommitStatusOfRevision(ctx, payload.space, read.revision, {
        event: 'links-checked',
        changeRequest: payload.changeRequest,
      });

    let comment: LinkCommentOutcome | undefined;
    let warnings: ImportWarnings | undefined;
    if (payload.comment && payload.changeRequest !== undefined) {
      if (read.status !== undefined && COMMENTED_STATUSES.has(read.status)) {
        warnings = await readImportWarnings(ctx, payload.space, payload.changeRequest, read.revision);
        comment = await keepLinkComment(
          { api, log, signal: ctx.signal, dryRun: ctx.dryRun },
          { spaceId: payload.space, changeRequestId: payload.changeRequest },
          { broken: read.broken, warnings },
        );
      } else log.debug({ status: read.status }, 'change request closed, link comment left as it is');
    }
    return {
      result: read.broken.length === 0 ? 'clean' : 'broken-links',
      revision: read.revision,
      broken: read.broken.length,
      newlyBroken: diff.broken.length,
      fixed: diff.fixed.length,
      stillBroken: diff.stillBroken.length,
      ...(comment === undefined ? {} : { comment: comment.action }),
      ...(warnings === undefined ? {} : { warnings: warnings.count }),
    };
  },
  describe(outcome, payload) {
    const target =
      payload.changeRequest === undefined ? 'the main content' : `change request ${payload.changeRequest}`;
    const broken = outcome.broken === 0 ? 'no broken link' : `${outcome.broken} broken`;
    return `checked the links of ${target}: ${broken}`;
  },
});

/** Where a link is written, as log fields: file and line when known, and `at` in words either way. */
function placeFields(link: BrokenLink) {
  return {
    at: linkPlace(link),
    ...(link.file === undefined ? {} : { file: link.file }),
    ...(link.line === undefined ? {} : { line: link.line }),
  };
}

/** The warnings of the import that made the change request's revision, from the state of the space's mappings. */
async function readImportWarnings(
  ctx: Pick<CheckLinksServices, 'config' | 'stores'>,
  space: string,
  changeRequest: string,
  revision: string,
): Promise<ImportWarnings> {
  const mappings = ctx.config.mappings.filter((mapping) => mapping.space === space);
  if (mappings.length === 0) return NO_IMPORT_WARNINGS;
  const [imports, origin] = await Promise.all([
    Promise.all(
      mappings.map(async (mapping) => {
        const state = await ctx.stores.mappings.get(mapping.name);
        return {
          mapping: mapping.name,
          changeRequestId: state.changeRequestId,
          lastImport: state.lastImport,
        };
      }),
    ),
    ctx.stores.mappings.revisionOrigin(space, revision),
  ]);
  return importWarningsFor(imports, { changeRequest, revision, origin });
}
