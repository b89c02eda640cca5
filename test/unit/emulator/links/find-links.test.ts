import { describe, expect, it } from 'vitest';
import { findLinks } from '../../../../src/emulator/links/find-links.js';

/** The addresses found in `markdown`, in order. */
function hrefs(markdown: string): string[] {
  return findLinks(markdown).map((link) => link.href);
}

describe('findLinks', () => {
  it('finds inline links and images with titles, and where each starts', () => {
    const markdown = 'See [the guide](guide.md "The guide") and ![logo](img/logo.png).';
    expect(findLinks(markdown)).toEqual([
      { kind: 'link', href: 'guide.md', offset: 4 },
      { kind: 'image', href: 'img/logo.png', offset: 42 },
    ]);
  });

  it('reads angle-bracket destinations, nested parentheses, escapes and character references', () => {
    expect(hrefs('[a](<my notes.md>) [b](a(b)c.md) [c](x\\).md) [d](a&amp;b.md) [e](&#35;top)')).toEqual([
      'my notes.md',
      'a(b)c.md',
      'x).md',
      'a&b.md',
      '#top',
    ]);
  });

  it('keeps percent-encoding and anchors as written', () => {
    expect(hrefs('[a](my%20notes.md#install) [b](../up/page.md?tab=1#x)')).toEqual([
      'my%20notes.md#install',
      '../up/page.md?tab=1#x',
    ]);
  });

  it('finds autolinks, mail autolinks and bare addresses, trailing punctuation left out', () => {
    const markdown =
      'Go to <https://example.com/a>, write <docs@example.com>; see https://x.org/b). Or www.example.org.';
    expect(findLinks(markdown)).toEqual([
      { kind: 'autolink', href: 'https://example.com/a', offset: 6 },
      { kind: 'autolink', href: 'mailto:docs@example.com', offset: 37 },
      { kind: 'literal', href: 'https://x.org/b', offset: 61 },
      { kind: 'literal', href: 'http://www.example.org', offset: 82 },
    ]);
  });

  it('takes a mail address in text but not a package version', () => {
    expect(hrefs('Mail team@example.com about depd@2.0.0.')).toEqual(['mailto:team@example.com']);
  });

  it('finds a reference definition where the address is written, not its references', () => {
    const markdown = 'Read [the guide][guide] or [guide].\n\n[guide]: guides/intro.md "Intro"\n';
    expect(findLinks(markdown)).toEqual([{ kind: 'definition', href: 'guides/intro.md', offset: 37 }]);
  });

  it('reads a definition whose destination and title are on the next lines', () => {
    expect(hrefs('[a]:\n  <a b.md>\n  "A title"\n\n[b]: b.md\n')).toEqual(['a b.md', 'b.md']);
  });

  it('does not take a line inside a paragraph as a definition, nor a footnote', () => {
    expect(hrefs('Some text\n[x]: x.md\n\n[^1]: a note with [a link](note.md)\n')).toEqual(['note.md']);
  });

  it('finds the href of <a> and the src of <img>, inline and in HTML blocks', () => {
    const markdown =
      'Text <a href="inline.md">here</a>.\n\n<figure><img src=".gitbook/assets/x.png" alt=""></figure>\n\n<div>\n<a href=\'block.md\'>b</a>\n</div>\n';
    expect(findLinks(markdown)).toEqual([
      { kind: 'html', href: 'inline.md', offset: 14 },
      { kind: 'html', href: '.gitbook/assets/x.png', offset: 54 },
      { kind: 'html', href: 'block.md', offset: 110 },
    ]);
  });

  it('does not read markdown inside an HTML block or an HTML comment', () => {
    expect(
      hrefs('<div>\n[no](div.md)\n</div>\n\n<!-- [no](comment.md) <a href="c.md"> -->\n[yes](y.md)'),
    ).toEqual(['y.md']);
  });

  it('counts nothing in code spans, fenced code or indented code', () => {
    const markdown = [
      'Inline `[no](span.md)` and ``a ` [no](double.md)``.',
      '',
      '```md',
      '[no](fenced.md)',
      '```',
      '',
      '~~~',
      '<https://no.example.com>',
      '~~~',
      '',
      '    [no](indented.md)',
      '',
      '[yes](yes.md)',
    ].join('\n');
    expect(hrefs(markdown)).toEqual(['yes.md']);
  });

  it('ends a code fence with the list item or quote that holds it', () => {
    expect(
      hrefs('- ```\n  [no](in-item.md)\n- [yes](next-item.md)\n\n> ```\n> [no](q.md)\n\n[yes](after.md)'),
    ).toEqual(['next-item.md', 'after.md']);
  });

  it('reads a > inside a code fence of a list item as code, not as a quote ending the item', () => {
    expect(hrefs('* item\n\n  ```\n  > [no](shell.md)\n  ```\n\n  [yes](item.md)\n')).toEqual(['item.md']);
  });

  it('takes an unmatched backtick as a character', () => {
    expect(hrefs('a ` b [link](l.md)')).toEqual(['l.md']);
  });

  it('reads escaped brackets as text; an escaped ! leaves a link, not an image', () => {
    expect(findLinks('\\[not a link](a.md) \\![a link](b.png) [real](c.md)')).toEqual([
      { kind: 'link', href: 'b.png', offset: 22 },
      { kind: 'link', href: 'c.md', offset: 38 },
    ]);
  });

  it('finds the inner link of nested brackets, an image inside a link, and nothing in alt text', () => {
    expect(hrefs('[outer [inner](in.md)](out.md) [![badge](b.svg)](site.md) ![a [x](x.md)](i.png)')).toEqual([
      'in.md',
      'site.md',
      'b.svg',
      'i.png',
    ]);
  });

  it('takes no bare address inside a link text', () => {
    expect(hrefs('[https://example.com](page.md) [see www.x.org][ref]\n\n[ref]: r.md')).toEqual([
      'page.md',
      'r.md',
    ]);
  });

  it('reads links in headings, lists, block quotes and tables, and code inside a list item', () => {
    const markdown = [
      '# Title [h](h.md)',
      '',
      '- item [l](l.md)',
      '  ```',
      '  [no](in-fence.md)',
      '  ```',
      '',
      '      [no](indented-in-item.md)',
      '',
      '> quoted [q](q.md)',
      '',
      '| a | b |',
      '|---|---|',
      '| [c](c.md) | <https://t.example> |',
    ].join('\n');
    expect(hrefs(markdown)).toEqual(['h.md', 'l.md', 'q.md', 'c.md', 'https://t.example']);
  });

  it('leaves out empty destinations and reads an unclosed destination as text', () => {
    expect(hrefs('[empty]() [open](a.md [b](b.md)')).toEqual(['b.md']);
  });

  it('reads a link split over two lines of a paragraph', () => {
    expect(hrefs('[a\nb](\nsplit.md\n"t")')).toEqual(['split.md']);
  });

  it('finds no link in a page without a character that can start one', () => {
    expect(findLinks('# Plain\n\nJust words, no links.\n')).toEqual([]);
  });

  it('does not read GitBook blocks as links, only the links written inside them', () => {
    // The folder format names no `{% content-ref %}`: its `url` is not a link, the list inside is.
    expect(hrefs('{% content-ref url="cr.md" %}\n[cr.md](cr.md)\n{% endcontent-ref %}\n')).toEqual(['cr.md']);
  });

  describe("CommonMark's block edges", () => {
    it('reads the line after a quoted HTML block as a paragraph of its own: HTML takes no lazy line', () => {
      expect(hrefs('> <img src="q.png">\nSee [the guide](guide.md).')).toEqual(['q.png', 'guide.md']);
    });

    it('ends an HTML block with the list item or quote holding it', () => {
      expect(hrefs('- <div>\nSee [after the item](item.md)')).toEqual(['item.md']);
      expect(hrefs('> <div>\n> [in the block](no.md)\n[after the quote](quote.md)')).toEqual(['quote.md']);
      expect(hrefs('- <div>\n  [in the block](no.md)\n')).toEqual([]);
    });

    it('finds a definition in a quote in a list item', () => {
      expect(findLinks('- > [doc]: quoted.md\n\nSee [doc].')).toEqual([
        { kind: 'definition', href: 'quoted.md', offset: 4 },
      ]);
    });

    it('reads a > line inside an HTML block as its text: the block runs to a blank line', () => {
      expect(hrefs('<figure>\n>\n[in the figure](figure.md)\n</figure>\n\n[after](after.md)')).toEqual([
        'after.md',
      ]);
    });

    it('reads an unclosed comment as running to the end of the page', () => {
      expect(hrefs('<!-- TODO <a href="old.md">old</a>\n\nMore [text](text.md)\n')).toEqual([]);
    });

    it('reads five columns after a list marker as indented code in the item, tabs to the next stop', () => {
      expect(hrefs('  - \t<a href="tab.md">x</a>')).toEqual([]);
      expect(hrefs('-     [x](spaces.md)')).toEqual([]);
      expect(hrefs('- \t[x](item.md)')).toEqual(['item.md']);
    });

    it('ends a list item with the quote holding it, and reads a quote in an item from its content column', () => {
      expect(hrefs('>\t- item\n\n    [x]: code.md\n')).toEqual([]);
      expect(hrefs('- x\n\n    >\t[a](quoted-in-item.md)')).toEqual(['quoted-in-item.md']);
    });

    it('gives one column of a tab after > to the marker, the rest to the content', () => {
      expect(hrefs('>  \t[x](quoted.md)')).toEqual(['quoted.md']);
      expect(hrefs('>\t\t[x](code.md)')).toEqual([]);
    });

    it('reads the quote that ends an HTML block or fence in a list item', () => {
      expect(hrefs('* <figure>\n>\t[r]: quoted.md\n')).toEqual(['quoted.md']);
      expect(hrefs('- ```\n> [r]: after-fence.md\n')).toEqual(['after-fence.md']);
    });

    it('takes no definition across a line that starts a block', () => {
      expect(hrefs('[r]:\n<figure>\n\n[s]:\n> s.md\n\n[r] [s]')).toEqual([]);
    });

    it('reads a definition followed by a setext underline as a heading', () => {
      expect(hrefs('[f]:\n-\n\n[g]:\n===\n\n[f] [g]')).toEqual([]);
      expect(hrefs('[f]:\nf.md\n---\n')).toEqual(['f.md']);
    });
  });
});
