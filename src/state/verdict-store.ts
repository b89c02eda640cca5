// The merge verdict of each managed open change request, per mapping, refreshed by each poll, for
// /status: mergeable, or the reasons it is not.
import { z } from 'zod';

export const verdictSchema = z.object({
  changeRequest: z.string(),
  number: z.number(),
  subject: z.string(),
  revision: z.string(),
  mergeable: z.boolean(),
  reasons: z.array(z.string()),
  at: z.string(),
});

export type StoredVerdict = z.infer<typeof verdictSchema>;

/** Verdicts per mapping, one per change request. */
export interface VerdictStore {
  /** Replaces the verdicts of a mapping with those of its change requests open now. */
  replace(mapping: string, verdicts: readonly StoredVerdict[]): Promise<void>;
  set(mapping: string, verdict: StoredVerdict): Promise<void>;
  /** The mapping's verdicts by change request number; one that does not read back is left out. */
  list(mapping: string): Promise<StoredVerdict[]>;
}

export function byNumber(a: StoredVerdict, b: StoredVerdict): number {
  return a.number - b.number;
}
