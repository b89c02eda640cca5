// A section or a section group moved: put next to its anchors (or last) among the nodes of its new
// container, and given that container, a group or the top level of the site.
import { placeInOrder } from './site-order.js';
import type { StoredSite, StoredSiteNode } from './stored-sites.js';

const sameContainer = (a: StoredSiteNode, b: StoredSiteNode) => a.groupId === b.groupId;

/** Puts `node` into `groupId` (the top level when undefined), next to the anchors or last. */
export function moveSiteNode(
  site: StoredSite,
  node: StoredSiteNode,
  groupId: string | undefined,
  placement: { before?: StoredSiteNode | undefined; after?: StoredSiteNode | undefined },
): void {
  placeInOrder(site.nodes, node, placement, sameContainer);
  if (groupId === undefined) delete node.groupId;
  else node.groupId = groupId;
}
