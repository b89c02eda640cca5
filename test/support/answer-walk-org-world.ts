// The organization's own records the walk of every endpoint needs, made through the API: nested
// collections holding a space, a team, custom fields with a value on a space, invite links, a SAML
// provider and translation settings; with spares that the walk's deletions consume.
import { bodyOf, type ServiceRequest } from './service-request.js';

export interface OrgRecords {
  collectionId: string;
  nestedCollectionId: string;
  spareCollectionId: string;
  transferCollectionId: string;
  teamId: string;
  spareTeamId: string;
  fieldName: string;
  spareFieldName: string;
  inviteId: string;
  spareInviteId: string;
  samlProviderId: string;
  spareSamlProviderId: string;
  translationId: string;
  spareTranslationId: string;
}

interface Ids {
  admin: ServiceRequest;
  orgId: string;
  spaceId: string;
  readerUserId: string;
}

export async function buildOrgRecords({ admin, orgId, spaceId, readerUserId }: Ids): Promise<OrgRecords> {
  const org = `/orgs/${orgId}`;
  const id = async (path: string, body: unknown, method = 'POST') =>
    (await bodyOf(admin<{ id: string }>(path, method, body), 201)).id;

  const collectionId = await id(`${org}/collections`, { title: 'Guides' });
  const nestedCollectionId = await id(`${org}/collections`, { title: 'Advanced', parent: collectionId });
  const spareCollectionId = await id(`${org}/collections`, { title: 'Old guides' });
  const transferCollectionId = await id(`${org}/collections`, { title: 'Partner guides' });
  await bodyOf(admin(`/spaces/${spaceId}/move`, 'POST', { parent: collectionId }));

  const teamId = await id(`${org}/teams`, { title: 'Writers', members: [readerUserId] }, 'PUT');
  const spareTeamId = await id(`${org}/teams`, { title: 'Former writers' }, 'PUT');

  const field = async (name: string, body: Record<string, unknown>) => {
    await bodyOf(admin(`${org}/custom-fields`, 'POST', { name, ...body }), 201);
    return name;
  };
  const fieldName = await field('audience', {
    type: 'select',
    title: 'Audience',
    options: ['developers', 'writers'],
  });
  const spareFieldName = await field('old-owner', { type: 'text', title: 'Old owner' });
  await bodyOf(
    admin(`/spaces/${spaceId}/custom-fields`, 'PATCH', {
      values: { audience: { value: 'developers' }, 'old-owner': { value: 'Quinn' } },
    }),
    204,
  );

  await bodyOf(admin(org, 'PATCH', { inviteLinks: true }));
  const inviteId = await id(`${org}/link-invites`, { role: 'read' });
  const spareInviteId = await id(`${org}/link-invites`, { level: 'comment', space: spaceId });

  const samlProviderId = await id(`${org}/saml`, {
    label: 'Okta',
    entityID: 'https://okta.example.com/entity',
    ssoURL: 'https://okta.example.com/sso',
    defaultRole: 'read',
  });
  const spareSamlProviderId = await id(`${org}/saml`, { label: 'Old IdP' });

  const translationId = await id(`${org}/translations`, { title: 'French', languages: ['fr'] });
  const spareTranslationId = await id(`${org}/translations`, { title: 'German', languages: ['de'] });

  return {
    collectionId,
    nestedCollectionId,
    spareCollectionId,
    transferCollectionId,
    teamId,
    spareTeamId,
    fieldName,
    spareFieldName,
    inviteId,
    spareInviteId,
    samlProviderId,
    spareSamlProviderId,
    translationId,
    spareTranslationId,
  };
}
