// What docsync remembers of a branches mapping (src/versions/): the space of each branch, whether
// docsync made it, and the collection, site section and site spaces it placed them in. Kept in
// Redis, read back through zod; lost, it is found again from the service (the marker field).
import { z } from 'zod';

export const versionEntrySchema = z.object({
  space: z.string(),
  /** Made by docsync (or found by its marker): only such a space is ever deleted. */
  created: z.boolean(),
  siteSpace: z.string().optional(),
  /** The branch is gone and onBranchDelete is archive: taken off the site, kept. */
  archived: z.boolean().optional(),
  /** The custom field values docsync last set on the space (JSON): set again when the mapping's differ. */
  fields: z.string().optional(),
});

export const versionStateSchema = z.object({
  collection: z.string().optional(),
  site: z.string().optional(),
  section: z.string().optional(),
  branches: z.record(z.string(), versionEntrySchema).default({}),
});

export type VersionEntry = z.output<typeof versionEntrySchema>;
export type VersionState = z.output<typeof versionStateSchema>;

export interface VersionStateStore {
  /** The mapping's state; an empty one when nothing is kept. */
  get(mapping: string): Promise<VersionState>;
  set(mapping: string, state: VersionState): Promise<void>;
}

export const emptyVersionState = (): VersionState => ({ branches: {} });
