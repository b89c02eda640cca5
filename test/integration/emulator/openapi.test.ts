import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { callApi, startTestEmulator, type TestEmulator } from '../../support/start-test-emulator.js';

interface Spec {
  object: string;
  id: string;
  slug: string;
  sourceURL?: string;
  processingState: 'pending' | 'progress' | 'complete';
  lastVersion?: string;
  lastProcessedAt?: string;
  lastProcessErrorCode?: string;
  permissions: { view: boolean; edit: boolean };
  urls: { location: string; app: string };
}
interface Version {
  object: string;
  id: string;
  createdAt: string;
  url: string;
  urls: { location: string };
}
interface Page<T> {
  next?: { page: string };
  count: number;
  items: T[];
}

const PETS_JSON = JSON.stringify({ openapi: '3.1.0', info: { title: 'Pets', version: '1' }, paths: {} });
const PETS_YAML = 'openapi: 3.1.0\ninfo:\n  title: Pets\n  version: "2"\npaths: {}\n';

/** A local HTTP server for URL sources, closed after the file. */
async function serve(handler: RequestListener): Promise<string> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  afterAll(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A port nothing listens on: taken, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('openapi specs of the local service', async () => {
  const test = await startTestEmulator();
  const limited = await startTestEmulator({ limits: { fetchTimeoutMs: 300, fetchMaxBytes: 1024 } });
  const { admin, reviewer, reader } = test.tokens;
  const specs = (t: TestEmulator = test) => `${t.baseUrl}/orgs/${t.orgId}/openapi`;
  const sources = await serve((request, response) => {
    switch (request.url) {
      case '/spec.yaml':
        response.writeHead(200, { 'content-type': 'application/yaml' }).end(PETS_YAML);
        return;
      case '/moved':
        response.writeHead(302, { location: '/spec.yaml' }).end();
        return;
      case '/big.json':
        response.writeHead(200).end(`{"openapi":"3.1.0","x":"${'x'.repeat(4096)}"}`);
        return;
      case '/big-chunked':
        // No content-length: the cap applies while reading.
        for (let chunk = 0; chunk < 8; chunk += 1) response.write(`# ${'y'.repeat(500)}\n`);
        response.end('openapi: 3.1.0\n');
        return;
      case '/hang':
        return; // never answers
      default:
        response.writeHead(404).end('missing');
    }
  });

  /**
   * Polls the spec until processing completes, noting each state it went through: read from the
   * service's state in this process at every turn of the event loop, which no state change can
   * skip (a request over HTTP on a loaded machine can take longer than a state lasts).
   */
  async function untilComplete(
    slug: string,
    t: TestEmulator = test,
  ): Promise<{ spec: Spec; states: string[] }> {
    const states: string[] = [];
    const deadline = Date.now() + 10_000;
    for (;;) {
      const stored = Object.values(t.emulator.state.openapiSpecs).find(
        (candidate) => candidate.orgId === t.orgId && candidate.slug === slug,
      );
      const state = stored?.processingState;
      if (state !== undefined && states.at(-1) !== state) states.push(state);
      if (state === 'complete')
        return { spec: (await callApi<Spec>(`${specs(t)}/${slug}`, reader)).body, states };
      if (Date.now() > deadline) throw new Error(`spec ${slug} did not complete`);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  const versions = async (slug: string) =>
    (await callApi<Page<Version>>(`${specs()}/${slug}/versions`, reader)).body.items;

  it('creates a spec (201) that goes pending, progress, complete, with its first version', async () => {
    const created = await callApi<Spec>(specs(), admin, 'POST', {
      slug: 'pets',
      source: { text: PETS_JSON },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`/v1/orgs/${test.orgId}/openapi/pets`);
    expect(created.body).toMatchObject({
      object: 'openapi-spec',
      slug: 'pets',
      processingState: 'pending',
      permissions: { view: true, edit: true },
      urls: { location: `${specs()}/pets` },
    });
    expect(created.body.lastVersion).toBeUndefined();
    const { spec, states } = await untilComplete('pets');
    expect(states).toContain('progress');
    expect(states.at(-1)).toBe('complete');
    expect(spec.lastProcessErrorCode).toBeUndefined();
    expect(Date.parse(spec.lastProcessedAt ?? '')).not.toBeNaN();

    const [version] = await versions('pets');
    expect(version).toMatchObject({ object: 'openapi-spec-version', id: spec.lastVersion });
    expect(version?.url).toBe(`${test.origin}/_emulator/openapi/${spec.lastVersion}`);
    const latest = await callApi<Version>(`${specs()}/pets/versions/latest`, reader);
    expect(latest.body).toEqual(version);
    expect((await callApi<Version>(`${specs()}/pets/versions/${spec.lastVersion}`, reader)).body).toEqual(
      version,
    );
    const content = await callApi(`${specs()}/pets/versions/latest/content`, reader);
    expect(content.body).toEqual({ filesystem: JSON.parse(PETS_JSON), url: version?.url });
    const download = await fetch(version?.url ?? '');
    expect(download.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await download.text()).toBe(PETS_JSON);
  });

  it('makes a new version only when the text changes, newest first; the latest put wins', async () => {
    await callApi(specs(), admin, 'POST', { slug: 'orders', source: { text: PETS_JSON } });
    const first = (await untilComplete('orders')).spec;
    const same = await callApi<Spec>(`${specs()}/orders`, admin, 'PUT', { source: { text: PETS_JSON } });
    expect(same.status).toBe(200);
    expect(same.body.processingState).toBe('pending');
    const unchanged = (await untilComplete('orders')).spec;
    expect(unchanged.lastVersion).toBe(first.lastVersion);
    expect(await versions('orders')).toHaveLength(1);
    expect(Date.parse(unchanged.lastProcessedAt ?? '')).toBeGreaterThanOrEqual(
      Date.parse(first.lastProcessedAt ?? ''),
    );

    await callApi(`${specs()}/orders`, admin, 'PUT', { source: { text: `${PETS_JSON}\n` } });
    await callApi(`${specs()}/orders`, admin, 'PUT', { source: { text: PETS_YAML } });
    const changed = (await untilComplete('orders')).spec;
    const list = await versions('orders');
    expect(list).toHaveLength(2);
    expect(list.map((item) => item.id)).toEqual([changed.lastVersion, first.lastVersion]);
    const content = await callApi<{ filesystem: unknown }>(
      `${specs()}/orders/versions/latest/content`,
      reader,
    );
    expect(content.body.filesystem).toEqual({
      openapi: '3.1.0',
      info: { title: 'Pets', version: '2' },
      paths: {},
    });
    const older = await callApi<{ filesystem: unknown }>(
      `${specs()}/orders/versions/${first.lastVersion}/content`,
      reader,
    );
    expect(older.body.filesystem).toEqual(JSON.parse(PETS_JSON));
  });

  it('sets PARSE_ERROR for text that is not an OpenAPI document and keeps the last version', async () => {
    await callApi(specs(), admin, 'POST', { slug: 'parse', source: { text: PETS_YAML } });
    const good = (await untilComplete('parse')).spec;
    for (const text of ['openapi: [unclosed', 'title: not an api', '[1, 2]', '{"openapi": ']) {
      await callApi(`${specs()}/parse`, admin, 'PUT', { source: { text } });
      const { spec } = await untilComplete('parse');
      expect(spec.lastProcessErrorCode, text).toBe('PARSE_ERROR');
      expect(spec.lastVersion).toBe(good.lastVersion);
      expect(spec.lastProcessedAt).toBe(good.lastProcessedAt);
    }
    expect(await versions('parse')).toHaveLength(1);
    await callApi(`${specs()}/parse`, admin, 'PUT', { source: { text: PETS_YAML } });
    expect((await untilComplete('parse')).spec.lastProcessErrorCode).toBeUndefined();

    await callApi(specs(), admin, 'POST', { slug: 'never-valid', source: { text: 'swagger' } });
    const { spec } = await untilComplete('never-valid');
    expect(spec).toMatchObject({ lastProcessErrorCode: 'PARSE_ERROR' });
    expect(spec.lastVersion).toBeUndefined();
    expect((await callApi(`${specs()}/never-valid/versions/latest`, reader)).status).toBe(404);
    expect(await versions('never-valid')).toEqual([]);
  });

  it('loads URL sources, following redirects, and names what went wrong when it cannot', async () => {
    const created = await callApi<Spec>(specs(), admin, 'POST', {
      slug: 'remote',
      source: { url: `${sources}/spec.yaml` },
    });
    expect(created.body.sourceURL).toBe(`${sources}/spec.yaml`);
    const { spec } = await untilComplete('remote');
    expect(spec.lastProcessErrorCode).toBeUndefined();
    const version = await callApi<Version>(`${specs()}/remote/versions/latest`, reader);
    expect(await (await fetch(version.body.url)).text()).toBe(PETS_YAML);

    await callApi(`${specs()}/remote`, admin, 'PUT', { source: { url: `${sources}/moved` } });
    const redirected = (await untilComplete('remote')).spec;
    expect(redirected).toMatchObject({ lastVersion: spec.lastVersion, sourceURL: `${sources}/moved` });
    expect(redirected.lastProcessErrorCode).toBeUndefined();

    for (const url of [`${sources}/missing`, `http://127.0.0.1:${await closedPort()}/spec.yaml`]) {
      await callApi(`${specs()}/remote`, admin, 'PUT', { source: { url } });
      const failed = (await untilComplete('remote')).spec;
      expect(failed.lastProcessErrorCode, url).toBe('FETCH_ERROR');
      expect(failed.lastVersion).toBe(spec.lastVersion);
    }
    await callApi(`${specs()}/remote`, admin, 'PUT', { source: { text: PETS_YAML } });
    expect((await untilComplete('remote')).spec.sourceURL).toBeUndefined();
  });

  it('gives up on slow (FETCH_TIMEOUT) and large (FETCH_ERROR) sources within the limits', async () => {
    const create = (slug: string, path: string) =>
      callApi(specs(limited), limited.tokens.admin, 'POST', { slug, source: { url: `${sources}${path}` } });
    await create('small', '/spec.yaml');
    await create('slow', '/hang');
    await create('large', '/big.json');
    await create('large-chunked', '/big-chunked');
    expect((await untilComplete('small', limited)).spec.lastProcessErrorCode).toBeUndefined();
    const slow = await untilComplete('slow', limited);
    expect(slow.spec.lastProcessErrorCode).toBe('FETCH_TIMEOUT');
    expect(slow.states).toContain('progress');
    expect((await untilComplete('large', limited)).spec.lastProcessErrorCode).toBe('FETCH_ERROR');
    expect((await untilComplete('large-chunked', limited)).spec.lastProcessErrorCode).toBe('FETCH_ERROR');
  });

  it('checks slugs and sources (400), refuses a duplicate slug (409), and creates nothing then', async () => {
    const count = () => Object.keys(test.emulator.state.openapiSpecs).length;
    const before = count();
    const bodies = [
      { slug: 'Bad_Slug', source: { text: PETS_JSON } },
      { slug: 'a'.repeat(101), source: { text: PETS_JSON } },
      { slug: '-lead', source: { text: PETS_JSON } },
      { slug: 'double--dash', source: { text: PETS_JSON } },
      { slug: '', source: { text: PETS_JSON } },
      { slug: 'ok' },
      { slug: 'ok', source: { url: 'ftp://example.test/spec.yaml' } },
      { slug: 'ok', source: { url: `${sources}/spec.yaml`, text: PETS_JSON } },
      { slug: 'ok', source: { url: `http://example.test/${'x'.repeat(2048)}` } },
      { slug: 'ok', source: { text: '' } },
    ];
    for (const body of bodies) {
      const answer = await callApi<{ error: { code: number } }>(specs(), admin, 'POST', body);
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(answer.body.error.code).toBe(400);
    }
    expect((await callApi(`${specs()}/Bad_Slug`, admin, 'PUT', { source: { text: PETS_JSON } })).status).toBe(
      400,
    );
    expect(count()).toBe(before);
    const longest = 'a'.repeat(100);
    expect(
      (await callApi(specs(), admin, 'POST', { slug: longest, source: { text: PETS_JSON } })).status,
    ).toBe(201);
    const duplicate = await callApi<{ error: { code: number } }>(specs(), admin, 'POST', {
      slug: longest,
      source: { text: PETS_YAML },
    });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error.code).toBe(409);
    expect(count()).toBe(before + 1);
    await untilComplete(longest);
  });

  it('needs the create role to write and read to read; 401, 404 as usual', async () => {
    await callApi(specs(), admin, 'POST', { slug: 'roles', source: { text: PETS_JSON } });
    expect(
      (await callApi(specs(), reviewer, 'POST', { slug: 'nope', source: { text: PETS_JSON } })).status,
    ).toBe(403);
    expect((await callApi(`${specs()}/roles`, reviewer, 'PUT', { source: { text: PETS_YAML } })).status).toBe(
      403,
    );
    expect((await callApi(`${specs()}/roles`, reader, 'DELETE')).status).toBe(403);
    const read = await callApi<Spec>(`${specs()}/roles`, reader);
    expect(read.status).toBe(200);
    expect(read.body.permissions).toEqual({ view: true, edit: false });
    expect((await callApi(`${specs()}/roles`, undefined)).status).toBe(401);
    expect((await callApi(`${test.baseUrl}/orgs/org_other/openapi`, admin)).status).toBe(404);
    expect((await callApi(`${specs()}/missing`, reader)).status).toBe(404);
    expect((await callApi(`${specs()}/roles/versions/oav_nope`, reader)).status).toBe(404);
    expect((await callApi(`${specs()}/roles/versions/oav_nope/content`, reader)).status).toBe(404);
    expect((await callApi(`${specs()}/missing`, admin, 'DELETE')).status).toBe(404);
    await untilComplete('roles');
  });

  it('creates with PUT (200), lists in pages, and deletes (205) with its versions', async () => {
    const put = await callApi<Spec>(`${specs()}/made-by-put`, admin, 'PUT', { source: { text: PETS_JSON } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      object: 'openapi-spec',
      slug: 'made-by-put',
      processingState: 'pending',
    });
    const { spec } = await untilComplete('made-by-put');

    const all: string[] = [];
    let page: string | undefined;
    do {
      const answer = await callApi<Page<Spec>>(
        `${specs()}?limit=2${page === undefined ? '' : `&page=${page}`}`,
        reader,
      );
      expect(answer.body.count).toBeLessThanOrEqual(2);
      all.push(...answer.body.items.map((item) => item.slug));
      page = answer.body.next?.page;
    } while (page !== undefined);
    expect(all).toContain('made-by-put');
    expect(new Set(all).size).toBe(all.length);
    expect((await callApi(`${specs()}?limit=1001`, reader)).status).toBe(400);

    const deleted = await callApi(`${specs()}/made-by-put`, admin, 'DELETE');
    expect(deleted.status).toBe(205);
    expect((await callApi(`${specs()}/made-by-put`, reader)).status).toBe(404);
    expect((await fetch(`${test.origin}/_emulator/openapi/${spec.lastVersion}`)).status).toBe(404);
  });

  it('leaves a spec deleted while processing deleted, without versions', async () => {
    const created = await callApi<Spec>(specs(), admin, 'POST', {
      slug: 'short-lived',
      source: { text: PETS_JSON },
    });
    expect(created.body.processingState).toBe('pending');
    expect((await callApi(`${specs()}/short-lived`, admin, 'DELETE')).status).toBe(205);
    // A spec created after the deletion is processed with the same pauses, its timers set after the
    // deleted one's: once it is complete, the run of the deleted spec has ended too.
    await callApi(specs(), admin, 'POST', { slug: 'after-short-lived', source: { text: PETS_JSON } });
    await untilComplete('after-short-lived');
    expect((await callApi(`${specs()}/short-lived`, reader)).status).toBe(404);
    expect(test.emulator.state.openapiSpecs[created.body.id]).toBeUndefined();
    const versionsOfDeleted = Object.values(test.emulator.state.openapiVersions).filter(
      (version) => version.specId === created.body.id,
    );
    expect(versionsOfDeleted).toEqual([]);
  });
});
