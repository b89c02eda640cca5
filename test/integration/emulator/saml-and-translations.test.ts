// SAML providers and the SSO login information of an organization, and its translation settings, in
// the local service: create, list, read, change and delete with the limits of the interface, roles
// (admins change them), and 404 outside the caller's organizations. Every answer is checked against
// the public document.
import { describe, expect, it } from 'vitest';
import { checkedService } from '../../support/checked-service.js';
import { serviceAs } from '../../support/service-request.js';
import { type ApiAnswer, startTestEmulator } from '../../support/start-test-emulator.js';
import { addTestOrganization } from '../../support/test-organization.js';

interface SamlProvider {
  id: string;
  label: string;
  ssoURL: string;
  entityID: string;
  status: string;
  defaultRole: string | null;
  defaultTeam?: { id: string };
  service: { startURL: string; acsURL: string; entityID: string };
}
interface TranslationSettings {
  id: string;
  object: string;
  title: string;
  languages: string[];
  updatedAt: string;
  permissions: { view: boolean; edit: boolean };
}
interface Page<T> {
  next?: { page: string };
  items: T[];
}

/**
 * The public document's `Translation` is another resource than the interface's translation settings
 * (a translation run of one space into one language, `object: translation`). The local service
 * follows the interface; these are the only differences the document finds.
 */
const TRANSLATION_SETTINGS_VERSUS_DOCUMENT = [
  '/ must have required property \'status\' ({"missingProperty":"status"})',
  '/ must have required property \'source\' ({"missingProperty":"source"})',
  '/ must have required property \'language\' ({"missingProperty":"language"})',
  '/ must have required property \'instructions\' ({"missingProperty":"instructions"})',
  '/ must have required property \'stats\' ({"missingProperty":"stats"})',
  '/object must be equal to one of the allowed values',
];

/** The differences above, for an answer of a translations route: per item of a list. */
function translationDifferences(_method: string, route: string, status: number, body: unknown): string[] {
  if (!route.includes('/translations') || status >= 300 || body === undefined) return [];
  const items = (body as { items?: unknown[] } | undefined)?.items;
  if (items === undefined) return TRANSLATION_SETTINGS_VERSUS_DOCUMENT;
  // ajv's errors, item after item; the checks show the first 12.
  return items
    .flatMap((_, index) =>
      TRANSLATION_SETTINGS_VERSUS_DOCUMENT.map((line) =>
        line.startsWith('/ ') ? `/items/${index}${line.slice(1)}` : `/items/${index}${line}`,
      ),
    )
    .slice(0, 12);
}

async function expectStatus<T>(answer: Promise<ApiAnswer<T>>, status: number): Promise<T> {
  const { status: got, body } = await answer;
  expect({ status: got, body }).toMatchObject({ status });
  return body;
}

describe('SAML providers and SSO logins in the local service', async () => {
  const test = await startTestEmulator();
  const otherOrg = addTestOrganization(test, 'Elsewhere', [{ name: 'Rea Reader', role: 'admin' }]);
  const admin = checkedService(serviceAs(test, test.tokens.admin), translationDifferences);
  const reader = checkedService(serviceAs(test, test.tokens.reader), translationDifferences);
  const saml = `/orgs/${test.orgId}/saml`;
  const certificate = '-----BEGIN CERTIFICATE-----\nMIIC\n-----END CERTIFICATE-----';

  it('creates a provider, pending until its identity provider is configured, then active', async () => {
    const created = await expectStatus(admin<SamlProvider>(saml, 'POST', { label: 'Okta' }), 201);
    expect(created).toMatchObject({ label: 'Okta', status: 'pending', entityID: '', defaultRole: 'read' });
    expect(created.service.startURL).toContain(created.id);
    const sso = `/orgs/${test.orgId}/sso`;
    expect((await expectStatus(reader<{ items: unknown[] }>(sso), 200)).items).toEqual([]);

    const patched = await expectStatus(
      admin<SamlProvider>(`${saml}/${created.id}`, 'PATCH', {
        entityID: 'http://www.okta.com/exk1',
        ssoURL: 'https://example.okta.com/app/sso/saml',
        certificate,
        defaultRole: 'edit',
      }),
      200,
    );
    expect(patched).toMatchObject({ status: 'active', defaultRole: 'edit', label: 'Okta' });
    expect(await expectStatus(admin<SamlProvider>(`${saml}/${created.id}`), 200)).toEqual(patched);
    // Every member reads the login information of the active providers.
    expect((await expectStatus(reader<{ items: unknown[] }>(sso), 200)).items).toEqual([
      { id: created.id, label: 'Okta', startURL: created.service.startURL },
    ]);
  });

  it('lists providers in pages, names a default team of the organization, and deletes', async () => {
    const team = await expectStatus(
      admin<{ id: string }>(`/orgs/${test.orgId}/teams`, 'PUT', { title: 'SSO users' }),
      201,
    );
    const second = await expectStatus(
      admin<SamlProvider>(saml, 'POST', { label: 'Azure AD', defaultTeam: team.id, defaultRole: null }),
      201,
    );
    expect(second).toMatchObject({ defaultTeam: { id: team.id }, defaultRole: null });
    await expectStatus(admin(saml, 'POST', { label: 'No team', defaultTeam: 'team_unknown' }), 404);

    const first = await expectStatus(admin<Page<SamlProvider>>(`${saml}?limit=1`), 200);
    expect(first.items.map((item) => item.label)).toEqual(['Okta']);
    const rest = await expectStatus(
      admin<Page<SamlProvider>>(`${saml}?limit=1&page=${first.next?.page}`),
      200,
    );
    expect(rest.items.map((item) => item.label)).toEqual(['Azure AD']);

    await expectStatus(admin(`${saml}/${second.id}`, 'DELETE'), 204);
    await expectStatus(admin(`${saml}/${second.id}`), 404);
    await expectStatus(admin(`${saml}/${second.id}`, 'DELETE'), 404);
  });

  it('refuses values past the limits, members below admin, and other organizations', async () => {
    await expectStatus(admin(saml, 'POST', {}), 400);
    await expectStatus(admin(saml, 'POST', { label: '' }), 400);
    await expectStatus(admin(saml, 'POST', { label: 'x'.repeat(31) }), 400);
    await expectStatus(admin(saml, 'POST', { label: 'Ok', entityID: 'e'.repeat(1025) }), 400);
    await expectStatus(admin(saml, 'POST', { label: 'Ok', certificate: 'c'.repeat(10_001) }), 400);
    await expectStatus(admin(saml, 'POST', { label: 'Ok', ssoURL: 'not an address' }), 400);
    await expectStatus(
      admin(saml, 'POST', { label: 'Ok', ssoURL: `https://idp.test/${'a'.repeat(2040)}` }),
      400,
    );
    await expectStatus(admin(saml, 'POST', { label: 'Ok', defaultRole: 'owner' }), 400);
    await expectStatus(admin(`${saml}?limit=1001`), 400);
    expect(
      await expectStatus(admin<SamlProvider>(saml, 'POST', { label: 'x'.repeat(30) }), 201),
    ).toMatchObject({
      label: 'x'.repeat(30),
    });

    await expectStatus(reader(saml), 403);
    await expectStatus(reader(saml, 'POST', { label: 'Mine' }), 403);
    // The reader administers the other organization; the admin is no member of it.
    await expectStatus(reader(`/orgs/${otherOrg}/saml`, 'POST', { label: 'Theirs' }), 201);
    await expectStatus(admin(`/orgs/${otherOrg}/saml`), 404);
    await expectStatus(admin(`/orgs/${otherOrg}/sso`), 404);
    const theirs = await expectStatus(reader<Page<SamlProvider>>(`/orgs/${otherOrg}/saml`), 200);
    expect(theirs.items.map((item) => item.label)).toEqual(['Theirs']);
    // A provider of one organization is not found through another.
    await expectStatus(admin(`${saml}/${theirs.items[0]?.id}`), 404);
  });

  it('makes a member an SSO member', async () => {
    const members = await expectStatus(admin<Page<{ id: string }>>(`/orgs/${test.orgId}/members`), 200);
    const memberId = members.items[0]?.id;
    const member = await expectStatus(
      admin<{ sso: boolean }>(`/orgs/${test.orgId}/members/${memberId}/sso`, 'POST'),
      200,
    );
    expect(member.sso).toBe(true);
    await expectStatus(reader(`/orgs/${test.orgId}/members/${memberId}/sso`, 'POST'), 403);
  });
});

describe('translation settings in the local service', async () => {
  const test = await startTestEmulator();
  const admin = checkedService(serviceAs(test, test.tokens.admin), translationDifferences);
  const reader = checkedService(serviceAs(test, test.tokens.reader), translationDifferences);
  const commenter = checkedService(serviceAs(test, test.tokens.commenter), translationDifferences);
  const translations = `/orgs/${test.orgId}/translations`;

  it('creates, lists, reads, replaces and deletes translation settings', async () => {
    const created = await expectStatus(
      admin<TranslationSettings>(translations, 'POST', { title: 'Handbook in French', languages: ['fr'] }),
      201,
    );
    expect(created).toMatchObject({
      object: 'translation-settings',
      title: 'Handbook in French',
      languages: ['fr'],
    });
    expect(created.permissions).toEqual({ view: true, edit: true });
    await expectStatus(admin(translations, 'POST', { title: 'Second' }), 201);

    const asReader = await expectStatus(reader<TranslationSettings>(`${translations}/${created.id}`), 200);
    expect(asReader.permissions).toEqual({ view: true, edit: false });
    const page = await expectStatus(reader<Page<TranslationSettings>>(`${translations}?limit=1`), 200);
    expect(page.items.map((item) => item.title)).toEqual(['Handbook in French']);
    const next = await expectStatus(
      reader<Page<TranslationSettings>>(`${translations}?page=${page.next?.page}`),
      200,
    );
    expect(next.items.map((item) => item.title)).toEqual(['Second']);

    test.emulator.clock.advance(60_000);
    const replaced = await expectStatus(
      admin<TranslationSettings>(`${translations}/${created.id}`, 'PUT', { title: 'Manual in French' }),
      200,
    );
    // The interface's body is the title alone: the languages stay.
    expect(replaced).toMatchObject({ title: 'Manual in French', languages: ['fr'] });
    expect(Date.parse(replaced.updatedAt)).toBeGreaterThan(Date.parse(created.updatedAt));
    const relanguaged = await expectStatus(
      admin<TranslationSettings>(`${translations}/${created.id}`, 'PUT', {
        title: 'Manual',
        languages: ['de', 'ja'],
      }),
      200,
    );
    expect(relanguaged.languages).toEqual(['de', 'ja']);

    await expectStatus(admin(`${translations}/${created.id}`, 'DELETE'), 205);
    await expectStatus(admin(`${translations}/${created.id}`), 404);
    await expectStatus(admin(`${translations}/${created.id}`, 'PUT', { title: 'Gone' }), 404);
  });

  it('refuses titles past the limits, unknown languages, and writers below admin', async () => {
    await expectStatus(admin(translations, 'POST', {}), 400);
    await expectStatus(admin(translations, 'POST', { title: '' }), 400);
    await expectStatus(admin(translations, 'POST', { title: 't'.repeat(101) }), 400);
    await expectStatus(admin(translations, 'POST', { title: 'Klingon', languages: ['tlh'] }), 400);
    await expectStatus(admin(translations, 'POST', { title: 'Twice', languages: ['fr', 'fr'] }), 400);
    await expectStatus(admin(`${translations}?limit=0`), 400);
    expect(
      await expectStatus(admin<TranslationSettings>(translations, 'POST', { title: 't'.repeat(100) }), 201),
    ).toMatchObject({ title: 't'.repeat(100) });

    await expectStatus(commenter(translations, 'POST', { title: 'Mine' }), 403);
    const some = await expectStatus(commenter<Page<TranslationSettings>>(translations), 200);
    await expectStatus(commenter(`${translations}/${some.items[0]?.id}`, 'DELETE'), 403);
    await expectStatus(admin('/orgs/org_unknown/translations'), 404);
  });
});
