// SAML providers and the SSO login information derived from them, as the interface shows them. The
// service-provider side (`service`) is addressed on the local service. A provider is `active` once its
// entity id, sign-on address and certificate are all set, `pending` until then; a pending provider's
// sign-on address is `about:blank` (the document requires an address).
import type { Caller, EmulatorContext } from '../emulator-context.js';
import type { StoredSamlProvider } from '../stored-org-settings.js';
import { renderTeam } from './render-team.js';

export function samlProviderActive(provider: StoredSamlProvider): boolean {
  return Boolean(provider.entityID && provider.ssoURL && provider.certificate);
}

function serviceOf(ctx: EmulatorContext, provider: StoredSamlProvider) {
  const base = `${ctx.origin()}/app/o/${provider.orgId}/saml/${provider.id}`;
  return { acsURL: `${base}/acs`, startURL: `${base}/start`, entityID: base };
}

export function renderSamlProvider(ctx: EmulatorContext, caller: Caller, provider: StoredSamlProvider) {
  const org = ctx.state.orgs[provider.orgId];
  const team = provider.defaultTeam === undefined ? undefined : ctx.state.teams[provider.defaultTeam];
  return {
    object: 'saml-provider' as const,
    id: provider.id,
    label: provider.label,
    ssoURL: provider.ssoURL ?? 'about:blank',
    entityID: provider.entityID ?? '',
    certificate: provider.certificate ?? '',
    // A team deleted since is left out.
    ...(team === undefined || org === undefined ? {} : { defaultTeam: renderTeam(caller, org, team) }),
    defaultRole: provider.defaultRole,
    createdAt: provider.createdAt,
    status: samlProviderActive(provider) ? ('active' as const) : ('pending' as const),
    service: serviceOf(ctx, provider),
    urls: { location: `${ctx.origin()}/v1/orgs/${provider.orgId}/saml/${provider.id}` },
  };
}

/** An item of `GET /orgs/{o}/sso`: where members start signing on through an active provider. */
export function renderSsoLogin(ctx: EmulatorContext, provider: StoredSamlProvider) {
  return { id: provider.id, label: provider.label, startURL: serviceOf(ctx, provider).startURL };
}
