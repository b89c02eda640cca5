// Bundles waiting for the documentation service to fetch them: one file per artifact under
// `<dataDir>/artifacts/`, reachable only through a signed address that expires, and deleted after
// use or once expired. A file's modification time is its publication time: the sweep needs no index.
import { utimesSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Logger } from '../log/create-logger.js';
import { ArtifactError } from './artifact-error.js';
import { checkArtifactSignature, MIN_SECRET_BYTES, signArtifact } from './artifact-signature.js';
import type { BundleStore, ReservedArtifact } from './bundle-store.js';
import { LocalBundleFiles } from './local-bundle-files.js';
import { SweepSchedule } from './sweep-schedule.js';

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
  readonly #files: LocalBundleFiles;
  readonly #schedule: SweepSchedule;

  constructor(options: ArtifactStoreOptions) {
    if (options.secret.length < MIN_SECRET_BYTES) {
      throw new ArtifactError(
        'ARTIFACT_SECRET_WEAK',
        `the artifact signing secret must be at least ${MIN_SECRET_BYTES} bytes`,
      );
    }
    this.#dir = options.dir;
    this.#files = new LocalBundleFiles(options.dir);
    this.#secret = options.secret;
    const { publicUrl } = options;
    this.#publicUrl = typeof publicUrl === 'string' ? () => publicUrl : publicUrl;
    this.#ttlMs = options.ttlMs;
    this.#log = options.log;
    this.#now = options.now ?? Date.now;
    this.#schedule = new SweepSchedule({
      sweepOnce: () => this.#sweepOnce(),
      everyMs: options.sweepEveryMs ?? DEFAULT_SWEEP_EVERY_MS,
      onError: (error) => this.#log.warn({ err: error, dir: this.#dir }, 'artifact sweep failed'),
    });
  }

  /** A fresh id and the path to write its bundle to. Nothing is served until `publish(id)`. */
  reserve(): ReservedArtifact {
    return this.#files.reserve();
  }

  /** The signed address of a written bundle, valid for the store's ttl from now. */
  async publish(id: string): Promise<string> {
    const path = this.#files.pathOf(id);
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
    const path = this.#files.pathOf(id);
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
    await this.#files.remove(id);
    this.#log.debug({ artifact: id }, 'artifact removed');
  }

  /** Deletes every bundle whose address has expired; returns how many went. */
  sweep(): Promise<number> {
    return this.#schedule.sweep();
  }

  /** Sweeps now, then on an interval that does not keep the process alive. */
  start(): void {
    this.#schedule.start();
  }

  /** Stops the interval and waits for a sweep under way. Idempotent. */
  close(): Promise<void> {
    return this.#schedule.close();
  }

  async #sweepOnce(): Promise<number> {
    const removed = await this.#files.sweep(this.#ttlMs, this.#now());
    if (removed > 0) this.#log.info({ removed }, 'expired artifacts removed');
    return removed;
  }
}
