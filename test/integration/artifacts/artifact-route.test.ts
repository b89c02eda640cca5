import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ArtifactStore, artifactSecret } from '../../../src/artifacts/artifact-store.js';
import { registerArtifactRoute } from '../../../src/http/routes/artifact-route.js';
import { captureLog, tempDir } from '../../support/test-context.js';
import { startRouteServer } from './route-test-server.js';

const TTL_MS = 15 * 60_000;
const REFUSED = {
  error: {
    code: 403,
    message:
      'this artifact address is not valid: it is unknown, altered or expired; ask docsync for a new one',
  },
};

describe('GET /artifacts/:id', async () => {
  const dir = join(await tempDir('artifact-route'), 'artifacts');
  const clock = { now: Date.now() };
  const { log, lines } = captureLog('trace');
  let origin = '';
  const artifacts = new ArtifactStore({
    dir,
    secret: artifactSecret(),
    // Known once the server listens on its port 0, as in a daemon without http.publicUrl.
    publicUrl: () => origin,
    ttlMs: TTL_MS,
    now: () => clock.now,
    log,
  });
  const started = await startRouteServer(log, (server) =>
    registerArtifactRoute(server, { store: artifacts, log }),
  );
  origin = started.origin;

  async function published(bytes: Buffer): Promise<{ id: string; address: string }> {
    const { id, path } = artifacts.reserve();
    await writeFile(path, bytes);
    return { id, address: await artifacts.publish(id) };
  }

  it('serves the published bundle, byte for byte, as a zip', async () => {
    const bytes = randomBytes(300_000);
    const { id, address } = await published(bytes);
    const response = await fetch(address);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-length')).toBe(String(bytes.length));
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${id}.zip"`);
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('refuses a tampered signature with 403', async () => {
    const { address } = await published(Buffer.from('zip'));
    const url = new URL(address);
    const signature = url.searchParams.get('signature') ?? '';
    url.searchParams.set('signature', `${signature.slice(0, -2)}${signature.endsWith('00') ? '11' : '00'}`);
    const response = await fetch(url);
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual(REFUSED);
  });

  it('refuses an expired address with 403', async () => {
    const { address } = await published(Buffer.from('zip'));
    clock.now += TTL_MS;
    try {
      const response = await fetch(address);
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual(REFUSED);
    } finally {
      clock.now -= TTL_MS;
    }
  });

  it('answers an unknown or removed bundle exactly as a bad signature, so ids cannot be probed', async () => {
    const { id, address } = await published(Buffer.from('zip'));
    await artifacts.remove(id);
    const removed = await fetch(address);
    expect(removed.status).toBe(403);
    expect(await removed.json()).toEqual(REFUSED);
    for (const path of [
      `/artifacts/${id}`,
      `/artifacts/${id}?expires=1&expires=2&signature=ab`,
      '/artifacts/..%2F..%2Fetc%2Fpasswd?expires=1&signature=ab',
    ]) {
      const response = await fetch(`${origin}${path}`);
      expect(response.status, path).toBe(403);
      expect(await response.json()).toEqual(REFUSED);
    }
  });

  it('never writes a signature into the log, even with request logging on', async () => {
    const { address } = await published(Buffer.from('zip'));
    const served = await fetch(address);
    expect(served.status).toBe(200);
    await served.arrayBuffer();
    const signature = new URL(address).searchParams.get('signature') ?? '';
    const text = JSON.stringify(lines);
    expect(text).toContain('incoming request');
    expect(text).toContain('artifact refused');
    expect(text).not.toContain(signature);
    expect(text).not.toContain('signature=');
  });
});
