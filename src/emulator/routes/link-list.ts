// The link-check list envelope: a Page of links plus `stats`; for a change request, `broken.changeRequest`
// counts the broken links that the main content does not have. Each link names where it points and
// the pages it is written on as ContentLocation records, as the caller sees them.
import type { Caller, EmulatorContext } from '../emulator-context.js';
import type { StoredChangeRequest, StoredSpace } from '../emulator-state.js';
import { pageOf } from '../page-list.js';
import { linkTargetLocation, pageLocation } from '../render/render-content-location.js';
import { type LinkStatus, type RevisionLink, revisionLinks } from '../revision-links.js';
import { requireRevision } from '../revisions.js';

export function linkList(
  ctx: EmulatorContext,
  caller: Caller,
  space: StoredSpace,
  cr: StoredChangeRequest | undefined,
  links: readonly RevisionLink[],
  query: { page?: string | undefined; limit?: string | undefined; status?: LinkStatus | undefined },
) {
  const broken = links.filter((link) => link.status === 'broken');
  let introduced: number | undefined;
  if (cr !== undefined) {
    const main = new Set(
      revisionLinks(ctx, requireRevision(ctx, space.revision))
        .filter((link) => link.status === 'broken')
        .map((link) => JSON.stringify(link.targetReference)),
    );
    introduced = broken.filter((link) => !main.has(JSON.stringify(link.targetReference))).length;
  }
  const scope = { ctx, caller, space, revision: requireRevision(ctx, cr?.revision ?? space.revision) };
  const selected = query.status === undefined ? links : links.filter((link) => link.status === query.status);
  return {
    ...pageOf(selected, query, (link) => ({
      status: link.status,
      relation: link.relation,
      targetReference: linkTargetLocation(scope, link.targetReference),
      locationReferences: link.pageIds.map((page) => pageLocation(scope, page)),
    })),
    stats: {
      total: links.length,
      broken: { total: broken.length, ...(introduced === undefined ? {} : { changeRequest: introduced }) },
    },
  };
}
