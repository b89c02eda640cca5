// The commits the export writes in its mirror and never pushes, as export bases (docs/architecture.md,
// "Bases docsync makes"): their message says what they are, so that they are known again.

const SUBJECT_PREFIX = 'docsync: export base of ';

export function syntheticBaseMessage(mapping: string, revision: string): string {
  return `${SUBJECT_PREFIX}${mapping} (revision ${revision}), never pushed\n`;
}

export function isSyntheticBase(commit: { subject: string }): boolean {
  return commit.subject.startsWith(SUBJECT_PREFIX);
}
