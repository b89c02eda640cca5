// Invite links of an organization (to it with a role, to a space or a collection with a level) and
// organizations found by e-mail domain, in the local service. docsync's client has no group for
// these: they are called as a user of the service would, and every answer is checked against the
// public document.
import { describe, expect, it } from 'vitest';
import { documented, documentedError } from '../../support/documented-answer.js';
import { serviceAs } from '../../support/service-request.js';
import { createTestSpace } from '../../support/start-test-emulator.js';
import { startTwoOrgEmulator } from '../../support/two-org-emulator.js';

const INVITES = '/orgs/{organizationId}/link-invites';
const INVITE = `${INVITES}/{inviteId}`;
const BY_DOMAIN = '/email-domains/{emailDomain}/orgs';

interface Invite {
  object: string;
  id: string;
  role?: string | null;
  level?: string | null;
  redundant: boolean;
  space?: { id: string };
  collection?: { id: string };
}

interface Page<T> {
  next?: { page: string };
  items: T[];
}

describe('invite links and organizations by e-mail domain in the local service', async () => {
  const test = await startTwoOrgEmulator();
  const admin = serviceAs(test, test.tokens.admin);
  const reviewer = serviceAs(test, test.tokens.reviewer);
  const invites = `/orgs/${test.orgId}/link-invites`;

  const ok = async <T>(method: string, docPath: string, path: string, status: number, body?: unknown) => {
    const answer = await admin<T>(path, method, body);
    expect({ status: answer.status, body: answer.body }).toMatchObject({ status });
    return documented(method, docPath, status, answer.body);
  };

  it('creates invite links only while the organization has them on', async () => {
    expect(await documentedError('POST', INVITES, admin(invites, 'POST', { role: 'read' }), 400)).toContain(
      'inviteLinks',
    );
    await ok('PATCH', '/orgs/{organizationId}', `/orgs/${test.orgId}`, 200, { inviteLinks: true });

    const invite = await ok<Invite>('POST', INVITES, invites, 201, { role: 'edit' });
    expect(invite).toMatchObject({ object: 'invite', role: 'edit', redundant: true });
    const guest = await ok<Invite>('POST', INVITES, invites, 201, { role: null });
    expect(guest.role).toBeNull();

    const read = await ok<Invite>('GET', INVITE, `${invites}/${invite.id}`, 200);
    expect(read).toEqual(invite);
    const listed = await ok<Page<Invite>>('GET', INVITES, invites, 200);
    expect(listed.items.map((each) => each.id)).toEqual([invite.id, guest.id]);
    const small = await ok<Page<Invite>>('GET', INVITES, `${invites}?limit=1`, 200);
    expect(small.items.map((each) => each.id)).toEqual([invite.id]);
    const next = await ok<Page<Invite>>('GET', INVITES, `${invites}?limit=1&page=${small.next?.page}`, 200);
    expect(next.items.map((each) => each.id)).toEqual([guest.id]);

    const changed = await ok<Invite>('PATCH', INVITE, `${invites}/${invite.id}`, 200, { role: 'admin' });
    expect(changed).toMatchObject({ id: invite.id, role: 'admin', redundant: true });
    expect(
      await documentedError(
        'PATCH',
        INVITE,
        admin(`${invites}/${invite.id}`, 'PATCH', { level: 'read' }),
        400,
      ),
    ).toContain('role');
    expect(
      await documentedError(
        'PATCH',
        INVITE,
        admin(`${invites}/${invite.id}`, 'PATCH', { role: 'owner' }),
        400,
      ),
    ).toContain('role');

    const deleted = await admin(`${invites}/${invite.id}`, 'DELETE');
    expect(deleted.status).toBe(205);
    expect(await documentedError('GET', INVITE, admin(`${invites}/${invite.id}`), 404)).toContain(invite.id);
    expect(
      await documentedError('DELETE', INVITE, admin(`${invites}/${invite.id}`, 'DELETE'), 404),
    ).toContain(invite.id);
  });

  it('invites to a space or a collection with a level, which can be changed', async () => {
    const spaceId = await createTestSpace(test, 'Invited space');
    const toSpace = await ok<Invite>('POST', INVITES, invites, 201, { level: 'comment', space: spaceId });
    expect(toSpace).toMatchObject({ object: 'invite', level: 'comment', space: { id: spaceId } });
    const collection = await ok<{ id: string }>(
      'POST',
      '/orgs/{organizationId}/collections',
      `/orgs/${test.orgId}/collections`,
      201,
      { title: 'Invited collection' },
    );
    const toCollection = await ok<Invite>('POST', INVITES, invites, 201, {
      level: 'read',
      collection: collection.id,
    });
    expect(toCollection).toMatchObject({ level: 'read', collection: { id: collection.id } });
    const raised = await ok<Invite>('PATCH', INVITE, `${invites}/${toSpace.id}`, 200, { level: 'edit' });
    expect(raised).toMatchObject({ level: 'edit', space: { id: spaceId } });
    expect(
      await documentedError(
        'PATCH',
        INVITE,
        admin(`${invites}/${toSpace.id}`, 'PATCH', { role: 'read' }),
        400,
      ),
    ).toContain('level');

    // Unknown targets, and an invite to a collection goes with the collection.
    expect(
      await documentedError(
        'POST',
        INVITES,
        admin(invites, 'POST', { level: 'read', space: 'spc_unknown' }),
        404,
      ),
    ).toContain('spc_unknown');
    expect(
      await documentedError(
        'POST',
        INVITES,
        admin(invites, 'POST', { level: 'read', collection: 'col_unknown' }),
        404,
      ),
    ).toContain('col_unknown');
    expect((await admin(`/collections/${collection.id}`, 'DELETE')).status).toBe(205);
    expect((await admin(`${invites}/${toCollection.id}`)).status).toBe(404);
  });

  it('keeps invite links to admins, and to the organization they belong to', async () => {
    const invite = await ok<Invite>('POST', INVITES, invites, 201, { role: 'read' });
    expect(await documentedError('GET', INVITES, reviewer(invites), 403)).toContain('admin');
    expect(
      await documentedError('POST', INVITES, reviewer(invites, 'POST', { role: 'read' }), 403),
    ).toContain('admin');
    expect((await reviewer(`${invites}/${invite.id}`, 'PATCH', { role: 'admin' })).status).toBe(403);
    expect((await reviewer(`${invites}/${invite.id}`, 'DELETE')).status).toBe(403);
    // Not found through another organization, nor in one the caller is not a member of.
    expect((await admin(`/orgs/${test.partnerOrgId}/link-invites/${invite.id}`)).status).toBe(404);
    expect((await admin('/orgs/org_unknown/link-invites')).status).toBe(404);
    expect(
      await documentedError('POST', INVITES, admin(invites, 'POST', { role: 'read', extra: 1 }), 400),
    ).toContain('body');
  });

  it('finds the organizations whose e-mail domains hold a domain', async () => {
    await ok('PATCH', '/orgs/{organizationId}', `/orgs/${test.orgId}`, 200, {
      emailDomains: ['docs.example', 'example.org'],
    });
    await ok('PATCH', '/orgs/{organizationId}', `/orgs/${test.partnerOrgId}`, 200, {
      emailDomains: ['Partner.example', 'example.org'],
    });
    const found = async (domain: string) =>
      (
        await ok<{ organizations: Array<{ id: string; emailDomains: string[] }> }>(
          'GET',
          BY_DOMAIN,
          `/email-domains/${domain}/orgs`,
          200,
        )
      ).organizations.map((org) => org.id);

    expect(await found('docs.example')).toEqual([test.orgId]);
    expect(await found('DOCS.example')).toEqual([test.orgId]);
    expect(await found('partner.example')).toEqual([test.partnerOrgId]);
    expect(await found('example.org')).toEqual([test.orgId, test.partnerOrgId]);
    expect(await found('nowhere.example')).toEqual([]);
    expect(await documentedError('GET', BY_DOMAIN, admin('/email-domains/not-a-domain/orgs'), 400)).toContain(
      'emailDomain',
    );
    expect((await serviceAs(test, undefined)('/email-domains/docs.example/orgs')).status).toBe(401);
  });
});
