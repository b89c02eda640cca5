// The local side of a store whose bundles live elsewhere: the folder the bundler writes into before
// the upload, its files named by artifact id, and the sweep of those a crash left behind.
import { mkdirSync } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ArtifactError } from './artifact-error.js';
import { isArtifactId, newArtifactId } from './artifact-signature.js';
import type { ReservedArtifact } from './bundle-store.js';

export class LocalBundleFiles {
  readonly #dir: string;
  #ready = false;

  constructor(dir: string) {
    this.#dir = dir;
  }

  reserve(): ReservedArtifact {
    if (!this.#ready) {
      mkdirSync(this.#dir, { recursive: true, mode: 0o700 });
      this.#ready = true;
    }
    const id = newArtifactId();
    return { id, path: this.pathOf(id) };
  }

  /** The file of an id docsync handed out; anything else could name a path outside the folder. */
  pathOf(id: string): string {
    if (!isArtifactId(id)) throw new ArtifactError('ARTIFACT_ID_INVALID', 'not an artifact id');
    return join(this.#dir, `${id}.zip`);
  }

  async remove(id: string): Promise<void> {
    await rm(this.pathOf(id), { force: true });
  }

  /** Deletes the bundles last written at least `olderThanMs` before `nowMs`; returns how many went. */
  async sweep(olderThanMs: number, nowMs: number): Promise<number> {
    let names: string[];
    try {
      names = await readdir(this.#dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw error;
    }
    let removed = 0;
    for (const name of names) {
      const id = name.endsWith('.zip') ? name.slice(0, -'.zip'.length) : '';
      if (!isArtifactId(id)) continue;
      const stats = await stat(this.pathOf(id)).catch(() => undefined);
      if (stats === undefined || Math.round(stats.mtimeMs) + olderThanMs > nowMs) continue;
      await rm(this.pathOf(id), { force: true });
      removed += 1;
    }
    return removed;
  }
}
