// SSO of an organization: its SAML providers (list, create, get, patch, delete; admins only, as they
// hold certificates) and the login information of the active ones, which every member may read.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ROLES } from '../../api/schemas/service-enums.js';
import type { EmulatorContext } from '../emulator-context.js';
import { notFound } from '../emulator-http-error.js';
import { nextSeq, type StoredOrg } from '../emulator-state.js';
import { newId } from '../ids.js';
import { pageOf } from '../page-list.js';
import { parseInput } from '../parse-input.js';
import { renderSamlProvider, renderSsoLogin, samlProviderActive } from '../render/render-saml-provider.js';
import { requireNamedOrg } from '../require-named-org.js';
import type { StoredSamlProvider } from '../stored-org-settings.js';

const providerFields = {
  label: z.string().min(1).max(30),
  entityID: z.string().max(1024),
  certificate: z.string().max(10000),
  ssoURL: z.url().max(2048),
  defaultTeam: z.string().min(1),
  defaultRole: z.enum(ROLES).nullable(),
};
const providerCreate = z.strictObject({
  ...providerFields,
  entityID: providerFields.entityID.optional(),
  certificate: providerFields.certificate.optional(),
  ssoURL: providerFields.ssoURL.optional(),
  defaultTeam: providerFields.defaultTeam.optional(),
  defaultRole: providerFields.defaultRole.optional(),
});
const providerPatch = providerCreate.partial();
const listQuery = z.looseObject({ page: z.string().optional(), limit: z.string().optional() });

type Params = { o: string; samlProviderId: string };

export function registerSamlRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const requireProvider = (org: StoredOrg, providerId: string): StoredSamlProvider => {
    const provider = ctx.state.samlProviders[providerId];
    if (provider === undefined || provider.orgId !== org.id) throw notFound(`SAML provider ${providerId}`);
    return provider;
  };
  /** A team of the organization a body names as `defaultTeam`: 404 when there is none. */
  const requireTeam = (org: StoredOrg, teamId: string): string => {
    const team = ctx.state.teams[teamId];
    if (team === undefined || team.orgId !== org.id) throw notFound(`team ${teamId} (defaultTeam)`);
    return team.id;
  };

  app.get<{ Params: Params }>('/v1/orgs/:o/saml', async (request) => {
    const { caller, org } = requireNamedOrg(request, 'admin', 'listing SAML providers');
    const providers = Object.values(ctx.state.samlProviders).filter((provider) => provider.orgId === org.id);
    return pageOf(providers, parseInput(listQuery, request.query, 'query'), (provider) =>
      renderSamlProvider(ctx, caller, provider),
    );
  });

  app.post<{ Params: Params }>('/v1/orgs/:o/saml', async (request, reply) => {
    const { caller, org } = requireNamedOrg(request, 'admin', 'creating a SAML provider');
    const body = parseInput(providerCreate, request.body, 'body');
    const provider: StoredSamlProvider = {
      id: newId('saml_'),
      seq: nextSeq(ctx.state),
      orgId: org.id,
      label: body.label,
      ...(body.entityID === undefined ? {} : { entityID: body.entityID }),
      ...(body.ssoURL === undefined ? {} : { ssoURL: body.ssoURL }),
      ...(body.certificate === undefined ? {} : { certificate: body.certificate }),
      ...(body.defaultTeam === undefined ? {} : { defaultTeam: requireTeam(org, body.defaultTeam) }),
      // Members signing on get the organization's default role unless the provider names one.
      defaultRole: body.defaultRole === undefined ? org.defaultRole : body.defaultRole,
      createdAt: ctx.now().toISOString(),
    };
    ctx.state.samlProviders[provider.id] = provider;
    ctx.changed();
    return reply
      .code(201)
      .header('location', `/v1/orgs/${org.id}/saml/${provider.id}`)
      .send(renderSamlProvider(ctx, caller, provider));
  });

  app.get<{ Params: Params }>('/v1/orgs/:o/saml/:samlProviderId', async (request) => {
    const { caller, org } = requireNamedOrg(request, 'admin', 'reading a SAML provider');
    return renderSamlProvider(ctx, caller, requireProvider(org, request.params.samlProviderId));
  });

  app.patch<{ Params: Params }>('/v1/orgs/:o/saml/:samlProviderId', async (request) => {
    const { caller, org } = requireNamedOrg(request, 'admin', 'changing a SAML provider');
    const provider = requireProvider(org, request.params.samlProviderId);
    const patch = parseInput(providerPatch, request.body, 'body');
    if (patch.defaultTeam !== undefined) requireTeam(org, patch.defaultTeam);
    for (const [key, value] of Object.entries(patch)) {
      if (value !== undefined) Object.assign(provider, { [key]: value });
    }
    ctx.changed();
    return renderSamlProvider(ctx, caller, provider);
  });

  app.delete<{ Params: Params }>('/v1/orgs/:o/saml/:samlProviderId', async (request, reply) => {
    const { org } = requireNamedOrg(request, 'admin', 'deleting a SAML provider');
    delete ctx.state.samlProviders[requireProvider(org, request.params.samlProviderId).id];
    ctx.changed();
    return reply.code(204).send();
  });

  app.get<{ Params: Params }>('/v1/orgs/:o/sso', async (request) => {
    const { org } = requireNamedOrg(request, 'read', 'reading the SSO logins');
    const active = Object.values(ctx.state.samlProviders)
      .filter((provider) => provider.orgId === org.id && samlProviderActive(provider))
      .sort((a, b) => a.seq - b.seq);
    return { items: active.map((provider) => renderSsoLogin(ctx, provider)) };
  });
}
