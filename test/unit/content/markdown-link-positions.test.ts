import { describe, expect, it } from 'vitest';
import { findLinks } from '../../../src/content/markdown-links.js';

describe('findLinks', () => {
  it('gives each link its line and column, where it starts in the source', () => {
    const markdown = [
      '# Guide', // 1
      '', // 2
      'Read [the setup](setup.md) then ![a chart](images/chart.png).', // 3
      '', // 4
      '> Quoted: <https://example.com/a> and <figure><img src="../gone.png" alt=""></figure>', // 5
      '', // 6
      '<figure>', // 7
      '  <img alt="x"', // 8
      "       src='assets/big.png'>", // 9
      '</figure>', // 10
      '', // 11
      'See [the reference][ref].', // 12
      '', // 13
      '[ref]: reference.md', // 14
    ].join('\n');
    expect(findLinks(markdown)).toEqual([
      { href: 'setup.md', line: 3, column: 6 },
      { href: 'images/chart.png', line: 3, column: 33 },
      { href: 'https://example.com/a', line: 5, column: 11 },
      { href: '../gone.png', line: 5, column: 57 },
      { href: 'assets/big.png', line: 9, column: 13 },
      // A reference is written at its definition: that is the line to fix.
      { href: 'reference.md', line: 14, column: 1 },
    ]);
  });

  it('skips links in code spans, code blocks and HTML comments, and resolves references and entities', () => {
    const markdown = [
      'Inline `[not](code.md)` and ``<a href="tick.md">``.',
      '',
      '```html',
      '<a href="fenced.md">x</a>',
      '```',
      '',
      '<!-- <a href="commented.md">old</a> -->',
      '',
      '<a href="a&amp;b.md">and</a> [esc](x\\_y.md) [ent](caf&eacute;.md)',
    ].join('\n');
    expect(findLinks(markdown)).toEqual([
      { href: 'a&b.md', line: 9, column: 10 },
      { href: 'x_y.md', line: 9, column: 30 },
      { href: 'café.md', line: 9, column: 45 },
    ]);
  });

  it('counts lines the way git shows them in CRLF files', () => {
    expect(findLinks('# T\r\n\r\n<img src="a.png">\r\n\r\n[b](b.md)\r\n')).toEqual([
      { href: 'a.png', line: 3, column: 11 },
      { href: 'b.md', line: 5, column: 1 },
    ]);
  });

  it('finds GFM autolinks written without brackets', () => {
    expect(findLinks('Visit https://example.com/docs or www.example.org.\n')).toEqual([
      { href: 'https://example.com/docs', line: 1, column: 7 },
      { href: 'http://www.example.org', line: 1, column: 35 },
    ]);
  });
});
