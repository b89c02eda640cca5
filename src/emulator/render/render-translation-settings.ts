// Translation settings as the interface shows them, with the caller's permissions in the
// organization: members read them, admins change them.
import { roleIn } from '../access.js';
import type { Caller, EmulatorContext } from '../emulator-context.js';
import { roleAtLeast } from '../roles.js';
import type { StoredTranslationSettings } from '../stored-org-settings.js';

export function renderTranslationSettings(
  ctx: EmulatorContext,
  caller: Caller,
  settings: StoredTranslationSettings,
) {
  const role = roleIn(caller, settings.orgId);
  return {
    object: 'translation-settings' as const,
    id: settings.id,
    title: settings.title,
    languages: settings.languages,
    createdAt: settings.createdAt,
    updatedAt: settings.updatedAt,
    permissions: { view: roleAtLeast(role, 'read'), edit: roleAtLeast(role, 'admin') },
    urls: { location: `${ctx.origin()}/v1/orgs/${settings.orgId}/translations/${settings.id}` },
  };
}
