// Space records as the interface shows them; counters are computed from the state, so they are
// always true.

import { roleIn } from '../access.js';
import { changeRequestsOfSpace } from '../change-request-index.js';
import type { Caller, EmulatorContext } from '../emulator-context.js';
import type { StoredSpace } from '../emulator-state.js';
import { roleAtLeast } from '../roles.js';

export function renderSpace(ctx: EmulatorContext, caller: Caller, space: StoredSpace) {
  const role = roleIn(caller, space.orgId);
  const origin = ctx.origin();
  const changeRequests = changeRequestsOfSpace(ctx.state, space.id);
  const openComments = Object.values(ctx.state.comments).filter(
    (comment) =>
      comment.spaceId === space.id &&
      comment.changeRequestId === undefined &&
      comment.status === 'open' &&
      comment.deletedAt === undefined,
  ).length;
  return {
    object: 'space' as const,
    id: space.id,
    title: space.title,
    emoji: space.emoji,
    visibility: space.visibility,
    createdAt: space.createdAt,
    updatedAt: space.updatedAt,
    ...(space.deletedAt === undefined ? {} : { deletedAt: space.deletedAt }),
    editMode: space.editMode,
    urls: {
      location: `${origin}/v1/spaces/${space.id}`,
      app: `${origin}/app/s/${space.id}`,
      published: `${origin}/published/${space.id}`,
    },
    organization: space.orgId,
    ...(space.parent === undefined ? {} : { parent: space.parent }),
    revision: space.revision,
    defaultLevel: space.defaultLevel,
    // Spaces follow the organization's merge rules, which the local service does not have.
    mergeRules: { type: 'inherit' },
    comments: openComments,
    changeRequests: changeRequests.length,
    changeRequestsOpen: changeRequests.filter((cr) => cr.status === 'open').length,
    changeRequestsDraft: changeRequests.filter((cr) => cr.status === 'draft').length,
    permissions: {
      view: roleAtLeast(role, 'read'),
      access: roleAtLeast(role, 'read'),
      admin: roleAtLeast(role, 'admin'),
      viewInviteLinks: roleAtLeast(role, 'admin'),
      edit: roleAtLeast(role, 'edit') && space.editMode === 'live',
      triggerGitSync: roleAtLeast(role, 'edit'),
      comment: roleAtLeast(role, 'comment'),
      merge: roleAtLeast(role, 'review'),
      review: roleAtLeast(role, 'review'),
      installIntegration: roleAtLeast(role, 'admin'),
    },
  };
}
