import { describe, expect, it } from 'vitest';
import { shownGitPath } from '../../../src/git/shown-git-path.js';

const shown = (bytes: number[]) => shownGitPath(Uint8Array.from(bytes));

describe('shownGitPath', () => {
  it('shows a name as it reads, the bytes that are not UTF-8 as \\xNN', () => {
    expect(shown([...Buffer.from('été/caf'), 0xe9, ...Buffer.from('.md')])).toBe('été/caf\\xe9.md');
  });

  it('escapes what is not a whole character: cut short, overlong, a surrogate, past U+10FFFF, a stray continuation', () => {
    expect(shown([0x61, 0xe2, 0x82])).toBe('a\\xe2\\x82');
    expect(shown([0xc0, 0xaf])).toBe('\\xc0\\xaf');
    expect(shown([0xed, 0xa0, 0x80])).toBe('\\xed\\xa0\\x80');
    expect(shown([0xf4, 0x90, 0x80, 0x80])).toBe('\\xf4\\x90\\x80\\x80');
    expect(shown([0x80, 0x41])).toBe('\\x80A');
  });

  it('escapes controls (C0 and C1) and backslashes, and keeps a byte order mark', () => {
    expect(shown([0x61, 0x0a, 0x62, 0x2f, 0x5c, 0xc2, 0x85, 0xff])).toBe('a\\x0ab/\\x5c\\xc2\\x85\\xff');
    expect(shown([0xef, 0xbb, 0xbf, 0x78, 0xff])).toBe('\uFEFFx\\xff');
  });
});
