// The subject of the change request docsync keeps for a mapping: the configured template filled in
// from the commit, a short marker that finds the change request again when docsync's state is lost,
// and, once the commit's content is in the change request, that commit (`@<12 hex>`): what the
// space holds is then known from the service alone, whatever Redis kept. Subjects are at most 100
// characters (the interface's limit); the marker and the commit always survive.
import { createHash } from 'node:crypto';

export const SUBJECT_MAX = 100;

/** The commit named in a subject: enough hex digits to be unique in any docs repository. */
export const SUBJECT_SHA_LENGTH = 12;

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

/**
 * The subject: the template filled in, the marker, and `@<sha>` when `imported` names the commit
 * whose content the change request holds (none for a working copy's content, or before the import).
 */
export function renderSubject(
  template: string,
  values: SubjectValues,
  marker: string,
  imported?: string,
): string {
  const tail = imported === undefined ? marker : `${marker} @${imported.slice(0, SUBJECT_SHA_LENGTH)}`;
  const filled = template
    .replace(/\{(message|shortSha|sha|branch|author)\}/g, (_, key: keyof SubjectValues) => values[key])
    .replace(/\s+/g, ' ')
    .trim();
  const room = SUBJECT_MAX - tail.length - 1;
  const text = filled.length > room ? `${filled.slice(0, room - 1).trimEnd()}…` : filled;
  return text === '' ? tail : `${text} ${tail}`;
}

/**
 * The commit (abbreviated) a subject of `marker` names as imported, or undefined when it names none
 * (a working copy's content, a subject written before docsync named commits, or edited by a person).
 */
export function importedCommitOf(subject: string, marker: string): string | undefined {
  const at = subject.lastIndexOf(marker);
  if (at === -1) return undefined;
  const match = /^ @([0-9a-f]{7,64})(?:\s|$)/.exec(subject.slice(at + marker.length));
  return match?.[1];
}
