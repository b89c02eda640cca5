import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { GitError } from '../../../src/git/git-error.js';
import { GitOutputReader } from '../../../src/git/git-output-reader.js';
import type { GitProcess } from '../../../src/git/git-process.js';

const NEWLINE = 0x0a;
const NUL = 0;

/** A git process whose stdout gives `chunks` as they are, one read each. */
function gitPrinting(chunks: readonly string[]): GitProcess {
  let failure: GitError | undefined;
  const git = {
    args: ['cat-file', '--batch'],
    stdout: Readable.from(chunks.map((chunk) => Buffer.from(chunk, 'latin1'))),
    startTimer: () => {},
    stopTimer: () => {},
    fail: (code: 'GIT_OUTPUT_INVALID', reason: string) => {
      failure ??= new GitError({ code, args: git.args, reason });
      return failure;
    },
    get failed() {
      return failure;
    },
  };
  return git as unknown as GitProcess;
}

describe('GitOutputReader', () => {
  it('reads records and objects wherever the chunks of git output split them', async () => {
    // A header, a 10-byte object and its newline, then NUL-ended records, cut at awkward places:
    // inside a record, right before a delimiter, and right after one.
    const output = 'abc blob 10\n0123456789\nfirst\0second\0\0last\0';
    for (const cuts of [[], [1], [11], [12], [15, 22], [22, 23, 29], [...output].map((_, i) => i + 1)]) {
      const chunks: string[] = [];
      let from = 0;
      for (const cut of [...cuts, output.length]) {
        if (cut > from) chunks.push(output.slice(from, cut));
        from = cut;
      }
      const reader = new GitOutputReader(gitPrinting(chunks));
      expect((await reader.readUntil(NEWLINE))?.toString()).toBe('abc blob 10');
      expect((await reader.readExactly(11)).toString()).toBe('0123456789\n');
      const records: string[] = [];
      for (;;) {
        const record = await reader.readUntil(NUL);
        if (record === undefined) break;
        records.push(record.toString());
      }
      expect(records, `cut at ${cuts.join(',')}`).toEqual(['first', 'second', '', 'last']);
    }
  });

  it('takes what has arrived at once, and nothing (consuming nothing) of what has not', async () => {
    const reader = new GitOutputReader(gitPrinting(['one\ntwo\nthr', 'ee\n12345', '6789\n']));
    expect(reader.takeLine(NEWLINE)).toBeUndefined();
    expect(reader.takeExactly(1)).toBeUndefined();
    expect((await reader.readUntil(NEWLINE))?.toString()).toBe('one');
    expect(reader.takeLine(NEWLINE)).toBe('two');
    // `thr` has arrived without its newline: not taken, and still there once the rest comes.
    expect(reader.takeLine(NEWLINE)).toBeUndefined();
    expect(reader.takeUntil(NEWLINE)).toBeUndefined();
    expect((await reader.readUntil(NEWLINE))?.toString()).toBe('three');
    expect(reader.takeExactly(6)).toBeUndefined();
    expect(reader.takeExactly(5)?.toString()).toBe('12345');
    expect((await reader.readExactly(5)).toString()).toBe('6789\n');
    expect(await reader.readUntil(NEWLINE)).toBeUndefined();
  });

  it('reads a record split over chunks whole, once it has all arrived', async () => {
    const reader = new GitOutputReader(gitPrinting(['1\nab', 'c', 'd\ne\n']));
    expect((await reader.readUntil(NEWLINE))?.toString()).toBe('1');
    expect(reader.takeLine(NEWLINE)).toBeUndefined();
    expect((await reader.readUntil(NEWLINE))?.toString()).toBe('abcd');
    expect(reader.takeLine(NEWLINE)).toBe('e');
    expect(reader.takeLine(NEWLINE)).toBeUndefined();
  });

  it('fails with GIT_OUTPUT_INVALID when the output ends inside a record or an object', async () => {
    await expect(new GitOutputReader(gitPrinting(['no end'])).readUntil(NEWLINE)).rejects.toMatchObject({
      code: 'GIT_OUTPUT_INVALID',
      message: expect.stringContaining('ended in the middle of a record'),
    });
    await expect(new GitOutputReader(gitPrinting(['12', '3'])).readExactly(4)).rejects.toMatchObject({
      code: 'GIT_OUTPUT_INVALID',
      message: expect.stringContaining('ended in the middle of an object'),
    });
  });
});
