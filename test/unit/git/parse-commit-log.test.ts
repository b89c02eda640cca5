import { describe, expect, it } from 'vitest';
import {
  COMMIT_LOG_FORMAT,
  CommitLogFormatError,
  parseCommitLog,
  parseTrailers,
  trailerValues,
} from '../../../src/git/parse-commit-log.js';

const SHA_A = 'a'.repeat(40);
const SHA_B = 'b'.repeat(40);

/** One commit as `git log -z --format=COMMIT_LOG_FORMAT` prints it: eight NUL-ended fields, then NUL. */
function record(fields: {
  sha: string;
  subject?: string;
  body?: string;
  time?: string;
  trailers?: string;
}): string {
  const { sha, subject = 'subject', body = '', time = '1700000000', trailers = '' } = fields;
  return [sha, sha.slice(0, 7), subject, body, 'Docs Writer', 'writer@example.com', time, trailers]
    .map((field) => `${field}\0`)
    .join('')
    .concat('\0');
}

describe('parseCommitLog', () => {
  it('reads commits in the order git printed them', () => {
    const output =
      record({
        sha: SHA_A,
        subject: 'docs: two',
        body: 'Why.\n\nDocsync-Revision: rev_2\n',
        trailers: 'Docsync-Revision: rev_2\n',
      }) + record({ sha: SHA_B, subject: 'docs: one', time: '1600000000' });
    const commits = parseCommitLog(output);
    expect(commits).toEqual([
      {
        sha: SHA_A,
        shortSha: 'aaaaaaa',
        subject: 'docs: two',
        body: 'Why.\n\nDocsync-Revision: rev_2',
        authorName: 'Docs Writer',
        authorEmail: 'writer@example.com',
        committedAt: new Date(1_700_000_000_000),
        trailers: { 'docsync-revision': ['rev_2'] },
      },
      expect.objectContaining({
        sha: SHA_B,
        body: '',
        trailers: {},
        committedAt: new Date(1_600_000_000_000),
      }),
    ]);
  });

  it('reads nothing from empty output', () => {
    expect(parseCommitLog('')).toEqual([]);
  });

  it('keeps newlines, colons and tabs of a body as they are', () => {
    const body = 'Line one: with a colon\n\tindented\n\nKey: not a trailer here\nmore text';
    expect(parseCommitLog(record({ sha: SHA_A, body }))[0]?.body).toBe(body);
  });

  it('refuses output in another shape', () => {
    expect(() => parseCommitLog(record({ sha: SHA_A }).slice(0, -1))).toThrow(CommitLogFormatError);
    expect(() => parseCommitLog(record({ sha: 'not-a-sha' }))).toThrow(CommitLogFormatError);
    expect(() => parseCommitLog(record({ sha: SHA_A, time: 'yesterday' }))).toThrow(CommitLogFormatError);
    expect(() => parseCommitLog(`${SHA_A}\0\0`)).toThrow(CommitLogFormatError);
  });

  it('asks git for NUL-ended fields with unfolded trailers only', () => {
    expect(COMMIT_LOG_FORMAT.split('%x00')).toHaveLength(9);
    expect(COMMIT_LOG_FORMAT).toContain('%(trailers:only=true,unfold=true)');
  });
});

describe('parseTrailers', () => {
  it('groups values by lower-cased key, in order', () => {
    const trailers = parseTrailers(
      'Docsync-Revision: rev_1\nCo-authored-by: A <a@example.com>\nco-authored-by: B <b@example.com>\n',
    );
    expect(trailers).toEqual({
      'docsync-revision': ['rev_1'],
      'co-authored-by': ['A <a@example.com>', 'B <b@example.com>'],
    });
  });

  it('keeps colons inside values and skips lines that are not trailers', () => {
    expect(parseTrailers('See-Also: https://example.com/a:b\n(cherry picked from x)\n\n: no key\n')).toEqual({
      'see-also': ['https://example.com/a:b'],
    });
  });

  it('is safe for keys that name Object.prototype members', () => {
    const trailers = parseTrailers('Constructor: value\n');
    expect(trailers.constructor).toEqual(['value']);
    expect(trailerValues({ trailers: {} }, 'constructor')).toEqual([]);
    expect(trailerValues({ trailers: {} }, 'toString')).toEqual([]);
  });

  it('finds values by key without case', () => {
    expect(trailerValues({ trailers: { 'docsync-revision': ['rev_9'] } }, 'Docsync-Revision')).toEqual([
      'rev_9',
    ]);
  });
});
