// docsync's client against the emulator over HTTP: organizations and spaces as docsync reads and
// makes them, with the errors a caller decides on (401, 403, 404). The routes docsync does not call
// are tested in test/integration/emulator.
import { describe, expect, it } from 'vitest';
import { apiErrorOf, expectApiStatus } from '../../support/api-error-of.js';
import { startTestEmulator } from '../../support/start-test-emulator.js';
import { testApiClient } from '../../support/test-api-client.js';

describe('organizations and spaces through the client', async () => {
  const test = await startTestEmulator();
  const { client, attempts } = testApiClient(test);
  const reader = testApiClient(test, test.tokens.reader).client;
  const lastStatus = () => attempts.at(-1)?.status;

  it('lists the one organization of the token, on one page', async () => {
    const page = await client.orgs.list();
    expect(page.items.map((org) => org.id)).toEqual([test.orgId]);
    expect(page.items[0]).toMatchObject({ object: 'organization', title: 'Local docs' });
    expect(page.next).toBeUndefined();
  });

  it('creates a space (201) that reads back with its owner, an empty revision and zero counters', async () => {
    const space = await client.spaces.create(test.orgId, { title: 'Handbook' });
    expect(lastStatus()).toBe(201);
    expect(space).toMatchObject({
      object: 'space',
      title: 'Handbook',
      organization: test.orgId,
      visibility: 'private',
      changeRequests: 0,
      changeRequestsOpen: 0,
      changeRequestsDraft: 0,
      comments: 0,
    });
    expect(space.deletedAt).toBeUndefined();
    expect(await client.spaces.get(space.id)).toEqual(space);
    const content = await client.content.getRevision({ spaceId: space.id });
    expect(content).toMatchObject({ id: space.revision, pages: [], files: [] });
    const denied = await expectApiStatus(reader.spaces.create(test.orgId, { title: 'Not mine' }), 403);
    expect(denied.retryable).toBe(false);
    await expectApiStatus(client.spaces.create('org_unknown', { title: 'Nowhere' }), 404);
  });

  it('answers 404 for unknown ids everywhere', async () => {
    const space = await client.spaces.create(test.orgId, { title: 'Known' });
    await expectApiStatus(client.spaces.get('spc_unknown'), 404);
    await expectApiStatus(client.changeRequests.get(space.id, 'cr_unknown'), 404);
    await expectApiStatus(client.changeRequests.get(space.id, 99), 404);
    await expectApiStatus(client.content.getPage({ spaceId: space.id }, 'pg_unknown'), 404);
  });

  it('refuses a wrong token with 401, and the token appears nowhere in the error', async () => {
    const token = 'wrong-token-d0cSyncS3cr3t';
    const stranger = testApiClient(test, token);
    for (const call of [
      stranger.client.orgs.list(),
      stranger.client.spaces.get('spc_any'),
      stranger.client.changeRequests.create('spc_any', { subject: token }),
    ]) {
      const error = await expectApiStatus(call, 401);
      expect(error.retryable).toBe(false);
      expect(stranger.sleeps).toEqual([]);
      const seen = [
        error.message,
        error.stack ?? '',
        error.serviceMessage ?? '',
        String(error),
        JSON.stringify(error),
        JSON.stringify(error.cause ?? null),
      ].join('\n');
      expect(seen).not.toContain(token);
    }
    const unknown = await apiErrorOf(testApiClient(test, 'admin-token-but-longer').client.orgs.list());
    expect(unknown.status).toBe(401);
  });
});
