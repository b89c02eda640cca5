// Where import bundles wait for the documentation service to fetch them, seen from the import: a
// local file to write, then an address to hand over. Two stores: the data folder served by docsync's
// own HTTP server (artifact-store.ts, the default) and an S3-compatible bucket (s3-artifact-store.ts).

export interface ReservedArtifact {
  id: string;
  /** Where the bundler writes the zip. */
  path: string;
}

export interface BundleStore {
  /** A fresh id and the local path to write its bundle to. Nothing is reachable until `publish(id)`. */
  reserve(): ReservedArtifact;
  /** Makes the written bundle reachable, and returns the address the service fetches it from. */
  publish(id: string): Promise<string>;
  /** Deletes the bundle wherever it is, once imported or failed; removing one that is gone is fine. */
  remove(id: string): Promise<void>;
  /** Sweeps leftovers now, then on an interval that does not keep the process alive. */
  start(): void;
  /** Stops the interval and waits for a sweep under way. Idempotent. */
  close(): Promise<void>;
}
