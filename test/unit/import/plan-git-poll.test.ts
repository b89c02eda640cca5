import { describe, expect, it } from 'vitest';
import {
  importedCommitOf,
  renderSubject,
  SUBJECT_MAX,
  subjectMarker,
} from '../../../src/import/change-request-subject.js';
import { type PolledCommit, planGitPoll } from '../../../src/import/plan-git-poll.js';

const commit = (sha: string, trailers: Record<string, string[]> = {}): PolledCommit => ({
  sha,
  subject: `commit ${sha}`,
  authorName: 'Ada',
  trailers,
});
const base = {
  paused: false,
  lastImportedSha: 'a1',
  head: 'c3',
  headContainsLast: true,
  commits: [] as PolledCommit[],
};

describe('planGitPoll', () => {
  it('imports the head once for several new commits, naming the newest', () => {
    const decision = planGitPoll({ ...base, commits: [commit('c3'), commit('b2')] });
    expect(decision).toEqual({ kind: 'import', sha: 'c3', commit: commit('c3'), coalesced: 2 });
  });

  it('skips commits carrying docsync trailer, and imports the head for the newest commit by a person', () => {
    const fromDocsync = commit('c3', { 'docsync-revision': ['rev_9'] });
    expect(planGitPoll({ ...base, commits: [fromDocsync, commit('b2')] })).toEqual({
      kind: 'import',
      sha: 'c3',
      commit: commit('b2'),
      coalesced: 1,
    });
    expect(planGitPoll({ ...base, commits: [fromDocsync] })).toEqual({
      kind: 'only-docsync-commits',
      skipped: 1,
    });
  });

  it('does nothing when no commit touched the folder, or nothing moved', () => {
    expect(planGitPoll({ ...base, commits: [] })).toEqual({ kind: 'up-to-date' });
    expect(planGitPoll({ ...base, head: 'a1' })).toEqual({ kind: 'up-to-date' });
  });

  it('pauses when the branch was rewritten, and stays paused', () => {
    expect(planGitPoll({ ...base, headContainsLast: false, commits: [commit('c3')] })).toEqual({
      kind: 'pause',
      detail: 'the branch no longer contains a1, the last imported commit',
    });
    expect(planGitPoll({ ...base, paused: true, commits: [commit('c3')] })).toEqual({ kind: 'paused' });
  });

  it('imports the head on the first poll', () => {
    expect(
      planGitPoll({
        ...base,
        lastImportedSha: undefined,
        headContainsLast: undefined,
        commits: [commit('c3')],
      }),
    ).toMatchObject({ kind: 'import', sha: 'c3' });
  });
});

describe('change request subjects', () => {
  const values = {
    message: 'Fix the install guide',
    shortSha: 'abc1234',
    sha: 'abc1234def',
    branch: 'main',
    author: 'Ada',
  };

  it('fills the template and ends with the marker of the mapping and branch', () => {
    const marker = subjectMarker('docs', 'main');
    expect(marker).toMatch(/^\[docsync [0-9a-f]{8}\]$/);
    expect(subjectMarker('docs', 'main')).toBe(marker);
    expect(subjectMarker('docs', 'next')).not.toBe(marker);
    expect(renderSubject('docs: {message} ({shortSha}) on {branch} by {author}', values, marker)).toBe(
      `docs: Fix the install guide (abc1234) on main by Ada ${marker}`,
    );
  });

  it('stays within 100 characters and keeps the marker', () => {
    const marker = subjectMarker('docs', 'main');
    const subject = renderSubject('{message}', { ...values, message: 'x'.repeat(300) }, marker);
    expect(subject.length).toBe(SUBJECT_MAX);
    expect(subject.endsWith(`… ${marker}`)).toBe(true);
  });

  it('names the imported commit after the marker, within 100 characters, and reads it back', () => {
    const marker = subjectMarker('docs', 'main');
    const sha = '0123456789abcdef0123456789abcdef01234567';
    const subject = renderSubject('{message}', { ...values, message: 'x'.repeat(300) }, marker, sha);
    expect(subject.length).toBe(SUBJECT_MAX);
    expect(subject.endsWith(`… ${marker} @0123456789ab`)).toBe(true);
    expect(importedCommitOf(subject, marker)).toBe('0123456789ab');
  });

  it('reads no commit from a subject without one, of another mapping, or edited past the marker', () => {
    const marker = subjectMarker('docs', 'main');
    expect(importedCommitOf(`Fix ${marker}`, marker)).toBeUndefined();
    expect(importedCommitOf(`Fix ${subjectMarker('docs', 'next')} @0123456789ab`, marker)).toBeUndefined();
    expect(importedCommitOf(`Fix ${marker} @not-a-sha`, marker)).toBeUndefined();
    expect(importedCommitOf(`Fix ${marker} @0123456789ab (reviewed)`, marker)).toBe('0123456789ab');
  });
});
