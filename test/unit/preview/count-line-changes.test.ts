import { describe, expect, it } from 'vitest';
import { countLineChanges, countLines, splitLines } from '../../../src/preview/count-line-changes.js';

/** The textbook LCS table: removed = n - lcs, added = m - lcs. Slow, obviously right. */
function reference(before: string, after: string): { added: number; removed: number } {
  const a = splitLines(before);
  const b = splitLines(after);
  const table = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i -= 1)
    for (let j = b.length - 1; j >= 0; j -= 1)
      (table[i] as number[])[j] =
        a[i] === b[j]
          ? ((table[i + 1] as number[])[j + 1] as number) + 1
          : Math.max((table[i + 1] as number[])[j] as number, (table[i] as number[])[j + 1] as number);
  const common = (table[0] as number[])[0] as number;
  return { added: b.length - common, removed: a.length - common };
}

/** A deterministic generator, so a failure can be run again. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('countLineChanges', () => {
  it('counts a line changed in the middle as one removed and one added', () => {
    expect(countLineChanges('# Install\n\nRun it.\nDone.\n', '# Install\n\nRun it twice.\nDone.\n')).toEqual({
      added: 1,
      removed: 1,
      exact: true,
    });
  });

  it('counts lines added at the end, removed at the start, and a whole new or emptied text', () => {
    expect(countLineChanges('a\nb\n', 'a\nb\nc\nd\n')).toEqual({ added: 2, removed: 0, exact: true });
    expect(countLineChanges('x\ny\na\n', 'a\n')).toEqual({ added: 0, removed: 2, exact: true });
    expect(countLineChanges('', 'one\ntwo\nthree')).toEqual({ added: 3, removed: 0, exact: true });
    expect(countLineChanges('one\ntwo\n', '')).toEqual({ added: 0, removed: 2, exact: true });
  });

  it('sees no change in line endings or a final line break alone', () => {
    expect(countLineChanges('a\r\nb\r\n', 'a\nb')).toEqual({ added: 0, removed: 0, exact: true });
  });

  it('agrees with the LCS table on random edits of random texts', () => {
    const next = random(20);
    const words = ['alpha', 'beta', 'gamma', 'delta', '', '# Title', '- item'];
    const pick = () => words[Math.floor(next() * words.length)] as string;
    for (let round = 0; round < 300; round += 1) {
      const before = Array.from({ length: Math.floor(next() * 40) }, pick);
      const after = [...before];
      for (let edit = Math.floor(next() * 10); edit > 0; edit -= 1) {
        const at = Math.floor(next() * (after.length + 1));
        if (next() < 0.5) after.splice(at, 1);
        else after.splice(at, 0, pick());
      }
      const a = before.join('\n');
      const b = after.join('\n');
      expect({ ...countLineChanges(a, b), round }).toEqual({ ...reference(a, b), exact: true, round });
    }
  });

  it('past its work budget, gives the lines each side holds more often, marked approximate', () => {
    const before = Array.from({ length: 100_000 }, (_, n) => `old line ${n}`).join('\n');
    const after = Array.from({ length: 100_000 }, (_, n) => `new line ${n}`).join('\n');
    expect(countLineChanges(before, after)).toEqual({ added: 100_000, removed: 100_000, exact: false });
  });

  it('stays exact for a small change of a large text', () => {
    const lines = Array.from({ length: 200_000 }, (_, n) => `line ${n % 7}`);
    const edited = [...lines];
    edited.splice(100_000, 3, 'new a', 'new b');
    expect(countLineChanges(lines.join('\n'), edited.join('\n'))).toEqual({
      added: 2,
      removed: 3,
      exact: true,
    });
  });
});

describe('countLines', () => {
  it('counts lines as an editor shows them, a final line break starting none', () => {
    expect([countLines(''), countLines('a'), countLines('a\n'), countLines('a\n\nb\n')]).toEqual([
      0, 1, 1, 3,
    ]);
  });
});
