// Collection records as the interface shows them, with the caller's permissions in the collection's
// organization.
import { roleIn } from '../access.js';
import type { Caller, EmulatorContext } from '../emulator-context.js';
import { roleAtLeast } from '../roles.js';
import type { StoredCollection } from '../stored-org-resources.js';

export function renderCollection(ctx: EmulatorContext, caller: Caller, collection: StoredCollection) {
  const role = roleIn(caller, collection.orgId);
  const origin = ctx.origin();
  return {
    object: 'collection' as const,
    id: collection.id,
    title: collection.title,
    ...(collection.description === undefined ? {} : { description: collection.description }),
    organization: collection.orgId,
    ...(collection.parent === undefined ? {} : { parent: collection.parent }),
    defaultLevel: collection.defaultLevel,
    urls: {
      location: `${origin}/v1/collections/${collection.id}`,
      app: `${origin}/app/o/${collection.orgId}/c/${collection.id}`,
    },
    permissions: {
      view: roleAtLeast(role, 'read'),
      admin: roleAtLeast(role, 'admin'),
      viewInviteLinks: roleAtLeast(role, 'admin'),
      create: roleAtLeast(role, 'create'),
    },
  };
}
