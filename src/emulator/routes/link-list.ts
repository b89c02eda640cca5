// The link-check list envelope: a Page of links plus `stats`; for a change request, `broken.changeRequest`
// counts the broken links that the main content does not have, and `brokenContext: change-request`
// lists only those of its broken links. Each link names where it points and
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
  query: {
    page?: string | undefined;
    limit?: string | undefined;
    status?: LinkStatus | undefined;
    brokenContext?: 'change-request' | 'space' | undefined;
  },
) {
  const broken = links.filter((link) => link.status === 'broken');
  /** The change request's broken links that the main content has broken too. */
  let inMain: ((link: RevisionLink) => boolean) | undefined;
  let introduced: number | undefined;
  if (cr !== undefined) {
    const main = new Set(
      revisionLinks(ctx, requireRevision(ctx, space.revision))
        .filter((link) => link.status === 'broken')
        .map((link) => JSON.stringify(link.targetReference)),
    );
    inMain = (link) => link.status === 'broken' && main.has(JSON.stringify(link.targetReference));
    introduced = broken.filter((link) => !inMain?.(link)).length;
  }
  const scope = { ctx, caller, space, revision: requireRevision(ctx, cr?.revision ?? space.revision) };
  const selected = links.filter(
    (link) =>
      (query.status === undefined || link.status === query.status) &&
      !(query.brokenContext === 'change-request' && inMain?.(link) === true),
  );
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
