import { existsSync } from 'node:fs';
import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ArtifactError } from '../../../src/artifacts/artifact-error.js';
import { signArtifact } from '../../../src/artifacts/artifact-signature.js';
import { ArtifactStore, artifactSecret } from '../../../src/artifacts/artifact-store.js';
import { captureLog, tempDir } from '../../support/test-context.js';

const TTL_MS = 15 * 60_000;
const secret = artifactSecret('a-configured-secret-of-32-characters!');

async function testStore(label: string) {
  const dir = join(await tempDir(label), 'artifacts');
  const clock = { now: Date.now() };
  const { log, lines } = captureLog();
  const store = new ArtifactStore({
    dir,
    secret,
    publicUrl: 'http://docsync.test:8787/',
    ttlMs: TTL_MS,
    now: () => clock.now,
    log,
  });
  /** A written, published bundle and the parts of its address. */
  const publish = async (bytes = Buffer.from('zip bytes')) => {
    const { id, path } = store.reserve();
    await writeFile(path, bytes);
    const url = new URL(await store.publish(id));
    return {
      id,
      path,
      url,
      expires: url.searchParams.get('expires') ?? '',
      signature: url.searchParams.get('signature') ?? '',
    };
  };
  return { dir, clock, store, lines, publish };
}

describe('the artifact store', () => {
  it('publishes a signed address on the public URL that opens the bundle until it expires', async () => {
    const { clock, store, publish } = await testStore('store-publish');
    const { id, path, url, expires, signature } = await publish();
    expect(`${url.origin}${url.pathname}`).toBe(`http://docsync.test:8787/artifacts/${id}`);
    expect(Number(expires)).toBe(clock.now + TTL_MS);
    expect(signature).toBe(signArtifact(secret, id, Number(expires)));
    expect(await store.open(id, expires, signature)).toEqual({ ok: true, id, path, size: 9 });
    clock.now += TTL_MS - 1;
    expect((await store.open(id, expires, signature)).ok).toBe(true);
  });

  it('refuses a tampered id, a tampered expiry and a tampered signature', async () => {
    const { store, publish } = await testStore('store-tamper');
    const first = await publish();
    const second = await publish();
    expect(await store.open(second.id, first.expires, first.signature)).toEqual({
      ok: false,
      reason: 'signature',
    });
    expect(await store.open(first.id, String(Number(first.expires) + 60_000), first.signature)).toEqual({
      ok: false,
      reason: 'signature',
    });
    const flipped = first.signature.replace(/^./, (c) => (c === 'a' ? 'b' : 'a'));
    expect(await store.open(first.id, first.expires, flipped)).toEqual({ ok: false, reason: 'signature' });
    expect(await store.open(first.id, undefined, first.signature)).toEqual({
      ok: false,
      reason: 'malformed',
    });
  });

  it('refuses an address once its expiry has passed on the clock', async () => {
    const { clock, store, publish } = await testStore('store-expired');
    const { id, expires, signature } = await publish();
    clock.now += TTL_MS;
    expect(await store.open(id, expires, signature)).toEqual({ ok: false, reason: 'expired' });
  });

  it('refuses a well-signed address whose bundle is unknown or removed', async () => {
    const { clock, store, publish } = await testStore('store-unknown');
    const expires = clock.now + TTL_MS;
    const never = 'neverReservedArtifactId0';
    expect(await store.open(never, String(expires), signArtifact(secret, never, expires))).toEqual({
      ok: false,
      reason: 'unknown',
    });
    const { id, path, expires: given, signature } = await publish();
    await store.remove(id);
    expect(existsSync(path)).toBe(false);
    expect(await store.open(id, given, signature)).toEqual({ ok: false, reason: 'unknown' });
    await store.remove(id);
  });

  it('refuses ids it did not hand out, and publishing a bundle never written', async () => {
    const { store } = await testStore('store-ids');
    await expect(store.publish('../../etc/passwd')).rejects.toThrow(ArtifactError);
    await expect(store.remove('../outside')).rejects.toMatchObject({ code: 'ARTIFACT_ID_INVALID' });
    const { id } = store.reserve();
    await expect(store.publish(id)).rejects.toThrow(expect.objectContaining({ code: 'ARTIFACT_MISSING' }));
  });

  it('sweeps the bundles whose addresses expired, and only those', async () => {
    const { dir, clock, store, publish } = await testStore('store-sweep');
    const old = await publish();
    clock.now += TTL_MS / 2;
    const recent = await publish();
    await writeFile(join(dir, 'notes.txt'), 'not an artifact');
    expect(await store.sweep()).toBe(0);
    clock.now += TTL_MS / 2;
    expect(await store.sweep()).toBe(1);
    expect(new Set(await readdir(dir))).toEqual(new Set([`${recent.id}.zip`, 'notes.txt']));
    expect(existsSync(old.path)).toBe(false);
    clock.now += TTL_MS;
    expect(await store.sweep()).toBe(1);
  });

  it('sweeps on start and on its interval, and stops on close', async () => {
    const dir = join(await tempDir('store-interval'), 'artifacts');
    await mkdir(dir, { recursive: true });
    const stale = join(dir, 'staleArtifactFromLastRun0.zip');
    await writeFile(stale, 'old');
    await utimes(stale, new Date(Date.now() - 2 * TTL_MS), new Date(Date.now() - 2 * TTL_MS));
    const { log } = captureLog();
    const store = new ArtifactStore({
      dir,
      secret,
      publicUrl: 'http://x',
      ttlMs: TTL_MS,
      log,
      sweepEveryMs: 20,
    });
    store.start();
    store.start();
    await expect.poll(() => existsSync(stale)).toBe(false);
    const late = join(dir, 'staleArtifactWrittenLater.zip');
    await writeFile(late, 'old');
    await utimes(late, new Date(Date.now() - 2 * TTL_MS), new Date(Date.now() - 2 * TTL_MS));
    await expect.poll(() => existsSync(late)).toBe(false);
    await Promise.all([store.close(), store.close()]);
    await writeFile(late, 'old');
    await utimes(late, new Date(Date.now() - 2 * TTL_MS), new Date(Date.now() - 2 * TTL_MS));
    // A witness store on the same interval sweeps three stale files, one after another: the closed
    // store has missed at least two of its ticks by then.
    const witnessDir = join(await tempDir('store-witness'), 'artifacts');
    await mkdir(witnessDir, { recursive: true });
    const witness = new ArtifactStore({
      dir: witnessDir,
      secret,
      publicUrl: 'http://x',
      ttlMs: TTL_MS,
      log,
      sweepEveryMs: 20,
    });
    witness.start();
    for (let tick = 0; tick < 3; tick += 1) {
      const file = join(witnessDir, `staleWitnessArtifact${tick}.zip`);
      await writeFile(file, 'old');
      await utimes(file, new Date(Date.now() - 2 * TTL_MS), new Date(Date.now() - 2 * TTL_MS));
      await expect.poll(() => existsSync(file)).toBe(false);
    }
    await witness.close();
    expect(existsSync(late)).toBe(true);
  });

  it('refuses a signing secret shorter than 32 bytes', () => {
    const { log } = captureLog();
    expect(
      () =>
        new ArtifactStore({
          dir: '/nowhere',
          secret: Buffer.from('short'),
          publicUrl: 'http://x',
          ttlMs: 1,
          log,
        }),
    ).toThrow(expect.objectContaining({ code: 'ARTIFACT_SECRET_WEAK' }));
  });

  it('never logs a signature', async () => {
    const { store, lines, publish } = await testStore('store-logs');
    const { id, signature } = await publish();
    await store.remove(id);
    expect(lines.map((line) => line.msg)).toEqual(['artifact published', 'artifact removed']);
    expect(JSON.stringify(lines)).not.toContain(signature);
  });
});
