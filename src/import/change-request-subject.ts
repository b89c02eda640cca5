// The subject of the change request docsync keeps for a mapping: the configured template filled in
// from the commit, and a short marker that finds the change request again when docsync's state is
// lost. Subjects are at most 100 characters (the interface's limit); the marker always survives.
import { createHash } from 'node:crypto';

export const SUBJECT_MAX = 100;

export interface SubjectValues {
  message: string;
  shortSha: string;
  sha: string;
  branch: string;
  author: string;
}

/** `[docsync a1b2c3d4]`: the same for one mapping and branch, whatever the commit. */
export function subjectMarker(mapping: string, branch: string): string {
  return `[docsync ${createHash('sha256').update(`${mapping}\0${branch}`).digest('hex').slice(0, 8)}]`;
}

export function renderSubject(template: string, values: SubjectValues, marker: string): string {
  const filled = template
    .replace(/\{(message|shortSha|sha|branch|author)\}/g, (_, key: keyof SubjectValues) => values[key])
    .replace(/\s+/g, ' ')
    .trim();
  const room = SUBJECT_MAX - marker.length - 1;
  const text = filled.length > room ? `${filled.slice(0, room - 1).trimEnd()}…` : filled;
  return text === '' ? marker : `${text} ${marker}`;
}
