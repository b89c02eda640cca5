// Bundles waiting for the documentation service to fetch them: one file per artifact under
// `<dataDir>/artifacts/`, reachable only through a signed address that expires, and deleted after
// use or once expired. A file's modification time is its publication time: the sweep needs no index.
import { mkdirSync, utimesSync } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../log/create-logger.js';
import { ArtifactError } from './artifact-error.js';
import {
  checkArtifactSignature,
  isArtifactId,
  MIN_SECRET_BYTES,
  newArtifactId,
  signArtifact,
} from './artifact-signature.js';
import type { BundleStore, ReservedArtifact } from './bundle-store.js';

export { artifactSecret } from './artifact-signature.js';

export interface ArtifactStoreOptions {
  /** The folder the bundles live in, such as `<dataDir>/artifacts`; created on first use. */
  dir: string;
  /** The HMAC key; `artifactSecret(config.http.artifactSecret)`. At least 32 bytes. */
  secret: Buffer;
  /**
   * The base address the service reaches docsync at, such as http://127.0.0.1:8787; a function when
   * it is known only once the server listens (`http.publicUrl` unset, port 0).
   */
  publicUrl: string | (() => string);
  /** How long a published address stays valid, and its file with it. */
  ttlMs: number;
  log: Logger;
  now?: () => number;
  /** How often `start()` sweeps expired files. */
  sweepEveryMs?: number;
}

export type { ReservedArtifact } from './bundle-store.js';

/** Why an address was refused; for logs only, the route answers all of them alike. */
export type ArtifactRefusal = 'malformed' | 'signature' | 'expired' | 'unknown';

export type ArtifactOpening =
  | { ok: true; id: string; path: string; size: number }
  | { ok: false; reason: ArtifactRefusal };

const DEFAULT_SWEEP_EVERY_MS = 60_000;

export class ArtifactStore implements BundleStore {
  readonly #dir: string;
  readonly #secret: Buffer;
  readonly #publicUrl: () => string;
  readonly #ttlMs: number;
  readonly #log: Logger;
  readonly #now: () => number;
  readonly #sweepEveryMs: number;
  #dirReady = false;
  #timer: NodeJS.Timeout | undefined;
  #sweeping: Promise<number> | undefined;
  #closing: Promise<void> | undefined;

  constructor(options: ArtifactStoreOptions) {
    if (options.secret.length < MIN_SECRET_BYTES) {
      throw new ArtifactError(
        'ARTIFACT_SECRET_WEAK',
        `the artifact signing secret must be at least ${MIN_SECRET_BYTES} bytes`,
      );
    }
    this.#dir = options.dir;
    this.#secret = options.secret;
    const { publicUrl } = options;
    this.#publicUrl = typeof publicUrl === 'string' ? () => publicUrl : publicUrl;
    this.#ttlMs = options.ttlMs;
    this.#log = options.log;
    this.#now = options.now ?? Date.now;
    this.#sweepEveryMs = options.sweepEveryMs ?? DEFAULT_SWEEP_EVERY_MS;
  }

  /** A fresh id and the path to write its bundle to. Nothing is served until `publish(id)`. */
  reserve(): ReservedArtifact {
    if (!this.#dirReady) {
      mkdirSync(this.#dir, { recursive: true, mode: 0o700 });
      this.#dirReady = true;
    }
    const id = newArtifactId();
    return { id, path: this.#pathOf(id) };
  }

  /** The signed address of a written bundle, valid for the store's ttl from now. */
  async publish(id: string): Promise<string> {
    const path = this.#checkedPath(id);
    const nowMs = this.#now();
    const expires = nowMs + this.#ttlMs;
    try {
      // The sweep reads the publication time back from here.
      const at = new Date(nowMs);
      utimesSync(path, at, at);
    } catch (error) {
      throw new ArtifactError('ARTIFACT_MISSING', 'the artifact to publish has no file', { cause: error });
    }
    const signature = signArtifact(this.#secret, id, expires);
    this.#log.debug({ artifact: id, expiresAt: new Date(expires).toISOString() }, 'artifact published');
    const base = this.#publicUrl().replace(/\/+$/, '');
    return `${base}/artifacts/${id}?expires=${expires}&signature=${signature}`;
  }

  /** The bundle behind an address, when its signature holds, it has not expired, and it is still there. */
  async open(
    id: string,
    expires: string | undefined,
    signature: string | undefined,
  ): Promise<ArtifactOpening> {
    const check = checkArtifactSignature(this.#secret, { id, expires, signature }, this.#now());
    if (!check.ok) return check;
    const path = this.#pathOf(id);
    try {
      const stats = await stat(path);
      if (!stats.isFile()) return { ok: false, reason: 'unknown' };
      return { ok: true, id, path, size: stats.size };
    } catch {
      return { ok: false, reason: 'unknown' };
    }
  }

  /** Deletes a bundle once the service has imported it; removing one that is gone is fine. */
  async remove(id: string): Promise<void> {
    await rm(this.#checkedPath(id), { force: true });
    this.#log.debug({ artifact: id }, 'artifact removed');
  }

  /** Deletes every bundle whose address has expired; returns how many went. */
  sweep(): Promise<number> {
    this.#sweeping ??= this.#sweepOnce().finally(() => {
      this.#sweeping = undefined;
    });
    return this.#sweeping;
  }

  /** Sweeps now, then on an interval that does not keep the process alive. */
  start(): void {
    if (this.#timer !== undefined || this.#closing !== undefined) return;
    this.#timer = setInterval(() => void this.#sweepLogged(), this.#sweepEveryMs);
    this.#timer.unref();
    void this.#sweepLogged();
  }

  /** Stops the interval and waits for a sweep under way. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      if (this.#timer !== undefined) clearInterval(this.#timer);
      this.#timer = undefined;
      await this.#sweeping?.catch(() => undefined);
    })();
    return this.#closing;
  }

  #pathOf(id: string): string {
    return join(this.#dir, `${id}.zip`);
  }

  /** The file of an id docsync handed out; anything else could name a path outside the folder. */
  #checkedPath(id: string): string {
    if (!isArtifactId(id)) throw new ArtifactError('ARTIFACT_ID_INVALID', 'not an artifact id');
    return this.#pathOf(id);
  }

  async #sweepLogged(): Promise<void> {
    try {
      await this.sweep();
    } catch (error) {
      this.#log.warn({ err: error, dir: this.#dir }, 'artifact sweep failed');
    }
  }

  async #sweepOnce(): Promise<number> {
    let names: string[];
    try {
      names = await readdir(this.#dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw error;
    }
    const nowMs = this.#now();
    let removed = 0;
    for (const name of names) {
      const id = name.endsWith('.zip') ? name.slice(0, -'.zip'.length) : '';
      if (!isArtifactId(id)) continue;
      const path = this.#pathOf(id);
      const stats = await stat(path).catch(() => undefined);
      // Rounded: file systems keep the time in finer units than the milliseconds written.
      if (stats === undefined || Math.round(stats.mtimeMs) + this.#ttlMs > nowMs) continue;
      await rm(path, { force: true });
      removed += 1;
    }
    if (removed > 0) this.#log.info({ removed }, 'expired artifacts removed');
    return removed;
  }
}
