import { createServer } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { callApi, startTestEmulator } from '../../support/start-test-emulator.js';
import { writeZip } from '../../support/write-zip.js';

// A source that answers only when the test says so, so that other calls can happen during a fetch.
async function heldSource(body: Buffer) {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let fetching: () => void = () => {};
  // Resolves when the service has asked for the source: the import is under way from then on.
  const requested = new Promise<void>((resolve) => (fetching = resolve));
  const server = createServer((_request, response) => {
    fetching();
    void released.then(() => response.end(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const address = server.address();
  return {
    url: `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}/docs.zip`,
    release,
    requested,
  };
}

describe('imports that overlap other calls', async () => {
  const test = await startTestEmulator();
  const admin = test.tokens.admin;
  const zip = await writeZip([['README.md', Buffer.from('# Imported\n')]]);

  async function space() {
    return (
      await callApi<{ id: string; revision: string }>(
        `${test.baseUrl}/orgs/${test.orgId}/spaces`,
        admin,
        'POST',
        { title: 'Races' },
      )
    ).body;
  }

  it('refuses an import into a change request merged while its source was being fetched', async () => {
    const { id } = await space();
    const cr = (
      await callApi<{ id: string; revision: string }>(
        `${test.baseUrl}/spaces/${id}/change-requests`,
        admin,
        'POST',
        { subject: 'race' },
      )
    ).body;
    const source = await heldSource(zip);
    const importing = callApi(
      `${test.baseUrl}/spaces/${id}/change-requests/${cr.id}/content/import`,
      admin,
      'POST',
      { url: source.url, source: 'zip' },
    );
    await source.requested;
    expect(
      (await callApi(`${test.baseUrl}/spaces/${id}/change-requests/${cr.id}/merge`, admin, 'POST')).status,
    ).toBe(200);
    source.release();
    const answer = await importing;
    expect(answer.status).toBe(400);
    const after = (
      await callApi<{ status: string; revision: string }>(
        `${test.baseUrl}/spaces/${id}/change-requests/${cr.id}`,
        admin,
      )
    ).body;
    expect(after).toMatchObject({ status: 'merged', revision: cr.revision });
  });

  it('builds on a merge that landed during a space import instead of dropping it', async () => {
    const { id } = await space();
    const cr = (
      await callApi<{ id: string }>(`${test.baseUrl}/spaces/${id}/change-requests`, admin, 'POST', {
        subject: 'race',
      })
    ).body;
    const source = await heldSource(zip);
    const importing = callApi<{ revision: string }>(
      `${test.baseUrl}/spaces/${id}/content/import`,
      admin,
      'POST',
      { url: source.url, source: 'zip' },
    );
    await source.requested;
    const merged = (
      await callApi<{ revision: string }>(
        `${test.baseUrl}/spaces/${id}/change-requests/${cr.id}/merge`,
        admin,
        'POST',
      )
    ).body;
    source.release();
    const imported = (await importing).body;
    const revision = (
      await callApi<{ id: string; parents: string[] }>(`${test.baseUrl}/spaces/${id}/content`, admin)
    ).body;
    expect(revision.id).toBe(imported.revision);
    expect(revision.parents).toEqual([merged.revision]);
  });
});
