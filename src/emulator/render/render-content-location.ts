// Where a link points or sits, as the public document's ContentLocation: the organization, space,
// page and file as the records themselves (each as the caller sees it), or an address. The link
// check keeps ids (revision-links.ts); these are rendered when answering.
import type { Caller, EmulatorContext } from '../emulator-context.js';
import type { StoredRevision, StoredSpace } from '../emulator-state.js';
import { findRevisionPage } from '../find-revision-page.js';
import type { RevisionLink } from '../revision-links.js';
import { renderFile, renderPage } from './render-content.js';
import { renderSpace } from './render-space.js';
import { renderOrg } from './render-user.js';

/** The content the locations are in: a space's revision (its main content or a change request's). */
export interface LocationScope {
  ctx: EmulatorContext;
  caller: Caller;
  space: StoredSpace;
  revision: StoredRevision;
}

function owners(scope: LocationScope) {
  const { ctx, caller, space } = scope;
  const org = ctx.state.orgs[space.orgId];
  // Every space belongs to an organization of the state: a missing one is a bug, not a 404.
  if (org === undefined) throw new Error(`organization ${space.orgId} is missing from the state`);
  return { organization: renderOrg(ctx, caller, org), space: renderSpace(ctx, caller, space) };
}

/** A page of the revision; an id the revision lacks is shown as the address it was written as. */
export function pageLocation(scope: LocationScope, pageId: string): Record<string, unknown> {
  const found = findRevisionPage(scope.revision, pageId);
  if (found === undefined) return { kind: 'url', url: pageId };
  const parentPath = found.path.includes('/') ? found.path.slice(0, found.path.lastIndexOf('/')) : '';
  return { kind: 'page', ...owners(scope), page: renderPage(scope.ctx, found.page, parentPath) };
}

/** A file of the revision; an id the revision lacks is shown as the address it was written as. */
export function fileLocation(scope: LocationScope, fileId: string): Record<string, unknown> {
  const file = scope.revision.files.find((item) => item.id === fileId);
  if (file === undefined) return { kind: 'url', url: fileId };
  return { kind: 'file', ...owners(scope), file: renderFile(scope.ctx, scope.revision.id, file) };
}

/** What a link of the revision points to. */
export function linkTargetLocation(
  scope: LocationScope,
  target: RevisionLink['targetReference'],
): Record<string, unknown> {
  if (target.kind === 'page') return pageLocation(scope, target.page);
  if (target.kind === 'file') return fileLocation(scope, target.file);
  return target;
}
