import { describe, expect, it } from 'vitest';
import { notUtf8Reason } from '../../../src/git/not-utf8-reason.js';

const shown = (folder: string, bytes: number[]) =>
  notUtf8Reason(folder, Uint8Array.from(bytes)).replace(/^listed (.*), a name that is not UTF-8: .*$/, '$1');

describe('notUtf8Reason', () => {
  it('shows a path as it reads, the bytes that are not UTF-8 as \\xNN, and says what to do', () => {
    expect(notUtf8Reason('docs/été/', Uint8Array.from([0x63, 0x61, 0x66, 0xe9]))).toBe(
      'listed docs/été/caf\\xe9, a name that is not UTF-8: rename it to a UTF-8 name (git mv) or move it out of the mapped folder',
    );
  });

  it('escapes what is not a whole character: cut short, overlong, a surrogate, past U+10FFFF, a stray continuation', () => {
    expect(shown('', [0x61, 0xe2, 0x82])).toBe('a\\xe2\\x82');
    expect(shown('', [0xc0, 0xaf])).toBe('\\xc0\\xaf');
    expect(shown('', [0xed, 0xa0, 0x80])).toBe('\\xed\\xa0\\x80');
    expect(shown('', [0xf4, 0x90, 0x80, 0x80])).toBe('\\xf4\\x90\\x80\\x80');
    expect(shown('', [0x80, 0x41])).toBe('\\x80A');
  });

  it('escapes controls (C0 and C1), backslashes, also in the folder, and keeps a byte order mark', () => {
    expect(shown('a\nb/', [0x5c, 0xc2, 0x85, 0xff])).toBe('a\\x0ab/\\x5c\\xc2\\x85\\xff');
    expect(shown('', [0xef, 0xbb, 0xbf, 0x78, 0xff])).toBe('\uFEFFx\\xff');
  });
});
