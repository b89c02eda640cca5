// The store import bundles go through, as the configuration chooses: an S3-compatible bucket when
// `artifacts.s3` is set, else docsync's data folder served by its own HTTP server (the default).
// The daemon and `docsync once` both make theirs here.
import type { Config } from '../config/config-schema.js';
import type { Logger } from '../log/create-logger.js';
import { ArtifactStore, artifactSecret } from './artifact-store.js';
import type { BundleStore } from './bundle-store.js';
import { S3ArtifactStore } from './s3-artifact-store.js';

export interface BundleStoreInput {
  config: Pick<Config, 'http' | 'artifacts'>;
  /** The local folder, such as `<dataDir>/artifacts`: the bundles themselves, or those before their upload. */
  dir: string;
  /** The address the service reaches this process at, for the local store; read when publishing. */
  publicUrl: () => string;
  log: Logger;
}

/** `served`: the local store, which the HTTP server's artifact route must serve; none with a bucket. */
export function createBundleStore(input: BundleStoreInput): { store: BundleStore; served?: ArtifactStore } {
  const { config, dir, log } = input;
  const s3 = config.artifacts.s3;
  if (s3 !== undefined) return { store: new S3ArtifactStore({ dir, s3, log }) };
  const served = new ArtifactStore({
    dir,
    secret: artifactSecret(config.http.artifactSecret),
    publicUrl: input.publicUrl,
    ttlMs: config.http.artifactTtl,
    log,
  });
  return { store: served, served };
}
