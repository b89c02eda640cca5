// docsync's client walking a list longer than the largest page (1,000) on the emulator over HTTP:
// every item exactly once, in the service's order, with the cursor the service gave, and the limit
// enforced.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ChangeRequest } from '../../../src/api/schemas/change-request-schema.js';
import type { Space } from '../../../src/api/schemas/space-schema.js';
import { expectApiStatus } from '../../support/api-error-of.js';
import { startTestEmulator } from '../../support/start-test-emulator.js';
import { testApiClient } from '../../support/test-api-client.js';

const COUNT = 1050;
const BATCH = 75;

describe('pagination through the client', async () => {
  const test = await startTestEmulator();
  const { client } = testApiClient(test);
  const { client: reader, attempts } = testApiClient(test, test.tokens.reader);
  let space: Space;
  const created: ChangeRequest[] = [];
  const listCalls = () =>
    attempts.filter((attempt) => attempt.method === 'GET' && attempt.route === '/spaces/{}/change-requests');

  beforeAll(async () => {
    space = await client.spaces.create(test.orgId, { title: 'Busy' });
    for (let start = 0; start < COUNT; start += BATCH) {
      const batch = await Promise.all(
        Array.from({ length: BATCH }, (_, index) =>
          client.changeRequests.create(space.id, { subject: `Change ${start + index}` }),
        ),
      );
      created.push(...batch);
    }
  });

  it('made 1,050 change requests numbered 1 to 1,050, as the space counts them', async () => {
    expect(created.map((cr) => cr.number).sort((a, b) => a - b)).toEqual(
      Array.from({ length: COUNT }, (_, index) => index + 1),
    );
    expect(await client.spaces.get(space.id)).toMatchObject({
      changeRequests: COUNT,
      changeRequestsOpen: COUNT,
    });
  });

  it('walks every change request exactly once with listAll, newest first, in two requests', async () => {
    const before = listCalls().length;
    const walked: ChangeRequest[] = [];
    for await (const cr of reader.changeRequests.listAll(space.id)) walked.push(cr);
    expect(walked).toHaveLength(COUNT);
    expect(new Set(walked.map((cr) => cr.id))).toEqual(new Set(created.map((cr) => cr.id)));
    expect(walked.map((cr) => cr.number)).toEqual(Array.from({ length: COUNT }, (_, index) => COUNT - index));
    expect(
      listCalls()
        .slice(before)
        .map((call) => [call.path, call.status]),
    ).toEqual([
      [`/spaces/${space.id}/change-requests`, 200],
      [`/spaces/${space.id}/change-requests`, 200],
    ]);
  });

  it('gives 2 pages to a manual walk with limit 1000: 1,000 items and a cursor, then 50 and none', async () => {
    const first = await reader.changeRequests.list(space.id, { limit: 1000 });
    expect(first.count).toBe(1000);
    expect(first.items).toHaveLength(1000);
    expect(first.next?.page).toEqual(expect.any(String));
    const second = await reader.changeRequests.list(space.id, { limit: 1000, page: first.next?.page });
    expect(second.count).toBe(50);
    expect(second.next).toBeUndefined();
    const ids = [...first.items, ...second.items].map((cr) => cr.id);
    expect(new Set(ids).size).toBe(COUNT);
    // Without a limit the service serves its default page size.
    const small = await reader.changeRequests.list(space.id);
    expect(small.items.map((cr) => cr.id)).toEqual(ids.slice(0, 50));
  });

  it('refuses limit 1001 and 0, and a cursor it did not give, with 400', async () => {
    const over = await expectApiStatus(reader.changeRequests.list(space.id, { limit: 1001 }), 400);
    expect(over.serviceMessage).toMatch(/limit/);
    expect(over.retryable).toBe(false);
    await expectApiStatus(reader.changeRequests.list(space.id, { limit: 0 }), 400);
    await expectApiStatus(reader.changeRequests.list(space.id, { page: 'not-a-cursor' }), 400);
  });

  it('walks filtered lists the same way', async () => {
    const drafts = created.slice(0, 12);
    await Promise.all(drafts.map((cr) => client.changeRequests.patch(space.id, cr.id, { status: 'draft' })));
    const walked: string[] = [];
    for await (const cr of reader.changeRequests.listAll(space.id, { status: 'draft' })) walked.push(cr.id);
    expect(new Set(walked)).toEqual(new Set(drafts.map((cr) => cr.id)));
    expect(walked).toHaveLength(drafts.length);
    let open = 0;
    for await (const _ of reader.changeRequests.listAll(space.id)) open += 1;
    expect(open).toBe(COUNT - drafts.length);
    await Promise.all(drafts.map((cr) => client.changeRequests.patch(space.id, cr.id, { status: 'open' })));
  });

  it('keeps a walk exact while change requests are added during it', async () => {
    const seen: string[] = [];
    const added: string[] = [];
    for await (const cr of reader.changeRequests.listAll(space.id)) {
      seen.push(cr.id);
      if (seen.length === 1) {
        for (let index = 0; index < 3; index += 1)
          added.push((await client.changeRequests.create(space.id, { subject: 'Late' })).id);
      }
    }
    // Newest first: the late ones sort before the cursor, so this walk does not meet them.
    expect(seen).toHaveLength(COUNT);
    expect(new Set(seen)).toEqual(new Set(created.map((cr) => cr.id)));
    const after: string[] = [];
    for await (const cr of reader.changeRequests.listAll(space.id)) after.push(cr.id);
    expect(after.slice(0, 3)).toEqual([...added].reverse());
    expect(after).toHaveLength(COUNT + 3);
  });
});
