import { describe, expect, it } from 'vitest';
import { ContentError } from '../../../src/content/content-error.js';
import { parseSummary, type SummaryItem } from '../../../src/content/parse-summary.js';

/** The items without their link spans and empty children, to compare what each line says. */
function said(items: readonly SummaryItem[]): unknown[] {
  return items.map((item) => {
    if (item.kind === 'heading' || item.kind === 'break' || item.kind === 'stray-link') return item;
    const { link: _link, children, ...rest } = item;
    return children.length === 0 ? rest : { ...rest, children: said(children) };
  });
}

describe('parseSummary', () => {
  it('reads each kind of line: headings, breaks, documents, folders, links and entries without a link', () => {
    const text = [
      '# Summary',
      '',
      '* [Intro](README.md)',
      '## Getting Started ##',
      '- [Guides](guides/)',
      '  + [Install](<guides/install me.md> "Install it")',
      '    1. [Status](https://status.example.com/#now)',
      '* Overview \\*new\\*',
      '---',
      '* [Home](/)',
      '* [Mail](mailto:docs@example.com)',
      'Getting further',
      '===',
    ].join('\n');
    expect(said(parseSummary(text, 'SUMMARY.md'))).toEqual([
      { kind: 'heading', line: 1, level: 1, title: 'Summary' },
      { kind: 'document', line: 3, indent: 0, title: 'Intro', href: 'README.md', path: 'README.md' },
      { kind: 'heading', line: 4, level: 2, title: 'Getting Started' },
      {
        kind: 'folder',
        line: 5,
        indent: 0,
        title: 'Guides',
        href: 'guides/',
        path: 'guides',
        children: [
          {
            kind: 'document',
            line: 6,
            indent: 2,
            title: 'Install',
            href: 'guides/install me.md',
            path: 'guides/install me.md',
            children: [
              {
                kind: 'link',
                line: 7,
                indent: 4,
                title: 'Status',
                href: 'https://status.example.com/#now',
              },
            ],
          },
        ],
      },
      { kind: 'placeholder', line: 8, indent: 0, title: 'Overview *new*' },
      { kind: 'break', line: 9 },
      { kind: 'folder', line: 10, indent: 0, title: 'Home', href: '/', path: '' },
      { kind: 'link', line: 11, indent: 0, title: 'Mail', href: 'mailto:docs@example.com' },
      { kind: 'heading', line: 12, level: 1, title: 'Getting further' },
    ]);
  });

  it('resolves links against the summary’s folder, `/` against the root, percent-decoded, anchors cut', () => {
    const items = parseSummary(
      '* [A](a%20b.md#part)\n* [B](/top.md?x=1)\n* [C](../c.md)\n* [D](./)\n',
      'docs/SUMMARY.md',
    );
    expect(items.map((item) => ('path' in item ? [item.kind, item.path] : [item.kind]))).toEqual([
      ['document', 'docs/a b.md'],
      ['document', 'top.md'],
      ['document', 'c.md'],
      ['folder', 'docs'],
    ]);
  });

  it('marks what it reads past on a line: text beside the link, more links, a link to an anchor only', () => {
    const items = parseSummary(
      [
        '* [A](a.md) (new)',
        '* New: [B](b.md)',
        '* [C](c.md) [D](d.md)',
        '* [Intro](#intro)',
        '* [Empty]()',
        '* ![icon](icon.png) [E](e.md)',
        '* [![badge](badge.png) F](f.md)',
        '*',
      ].join('\n'),
      'SUMMARY.md',
    );
    expect(items.map((item) => ('unclear' in item ? [item.kind, item.unclear] : [item.kind]))).toEqual([
      ['document', 'text-around-link'],
      ['document', 'text-around-link'],
      ['document', 'several-links'],
      ['placeholder', 'anchor-only'],
      ['placeholder'],
      ['document', 'text-around-link'],
      ['document'],
      ['placeholder'],
    ]);
    expect(items[6]).toMatchObject({ title: '![badge](badge.png) F', path: 'f.md' });
    expect(items[7]).toMatchObject({ title: '' });
  });

  it('marks links that cannot name a file of the folder as outside, with the reason', () => {
    const items = parseSummary('* [Up](../up.md)\n* [Git](.git/config.md)\n', 'SUMMARY.md');
    expect(said(items)).toEqual([
      {
        kind: 'outside',
        line: 1,
        indent: 0,
        title: 'Up',
        href: '../up.md',
        reason: 'link ../up.md leaves the docs folder',
      },
      {
        kind: 'outside',
        line: 2,
        indent: 0,
        title: 'Git',
        href: '.git/config.md',
        reason: 'link .git/config.md contains a .git folder',
      },
    ]);
  });

  it('gives where each link and its destination sit in the line, to rewrite that line alone', () => {
    const line = '  * New: [Setup [beta]](<setup me.md> "Setup") (draft)';
    const [item] = parseSummary(`${line}\r\n`, 'SUMMARY.md');
    expect(item?.kind).toBe('document');
    const link = item !== undefined && 'link' in item ? item.link : undefined;
    expect(link && line.slice(link.start, link.end)).toBe('[Setup [beta]](<setup me.md> "Setup")');
    expect(link && line.slice(link.destination.start, link.destination.end)).toBe('<setup me.md>');
  });

  it('skips fenced code and HTML comments, and reports links outside the list', () => {
    const items = parseSummary(
      [
        '```md',
        '* [Fenced](fenced.md)',
        '```',
        '<!-- * [Hidden](hidden.md)',
        '* [Still hidden](hidden.md) -->',
        '[Stray](stray.md)',
        'Text without a link',
        '* [Kept](kept.md)',
        '  continued text of the item, [with a link](x.md)',
      ].join('\n'),
      'SUMMARY.md',
    );
    expect(said(items)).toEqual([
      { kind: 'stray-link', line: 6 },
      { kind: 'document', line: 8, indent: 0, title: 'Kept', href: 'kept.md', path: 'kept.md' },
    ]);
  });

  it('reads the first entry behind a byte order mark, its link where it sits in the text', () => {
    const items = parseSummary('\uFEFF* [Intro](intro.md)\n* [Setup](setup.md)\n', 'SUMMARY.md');
    expect(said(items)).toEqual([
      { kind: 'document', line: 1, indent: 1, title: 'Intro', href: 'intro.md', path: 'intro.md' },
      { kind: 'document', line: 2, indent: 0, title: 'Setup', href: 'setup.md', path: 'setup.md' },
    ]);
    const first = items[0];
    expect(
      first?.kind === 'document' && '\uFEFF* [Intro](intro.md)'.slice(first.link.start, first.link.end),
    ).toBe('[Intro](intro.md)');
  });

  it('skips the entries of an HTML comment indented under an entry', () => {
    const items = parseSummary(
      ['* [Guide](guide.md)', '    <!--', '    * [Draft](draft.md)', '    -->', '    * [Kept](kept.md)'].join(
        '\n',
      ),
      'SUMMARY.md',
    );
    expect(said(items)).toEqual([
      {
        kind: 'document',
        line: 1,
        indent: 0,
        title: 'Guide',
        href: 'guide.md',
        path: 'guide.md',
        children: [{ kind: 'document', line: 5, indent: 4, title: 'Kept', href: 'kept.md', path: 'kept.md' }],
      },
    ]);
  });

  it('nests by columns, a tab reaching the next multiple of four', () => {
    const items = parseSummary('* [A](a.md)\n\t* [B](b.md)\n    * [C](c.md)\n  * [D](d.md)\n', 'SUMMARY.md');
    expect(items).toHaveLength(1);
    const [a] = items;
    expect(a !== undefined && 'children' in a ? a.children.map((child) => child.title) : []).toEqual([
      'B',
      'C',
      'D',
    ]);
  });

  it('refuses a link holding a control character, naming the line', () => {
    let error: unknown;
    try {
      parseSummary('# Summary\n* [Evil](a%0Ab.md)\n', 'SUMMARY.md');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ContentError);
    expect(error).toMatchObject({
      code: 'PATH_UNSAFE',
      message: 'SUMMARY.md:2: the link "a%0Ab.md" holds a control character',
    });
  });

  it('reads past the rest of an over-long line and caps nesting, so hostile summaries stay cheap', () => {
    const [long] = parseSummary(`* [Install](install.md) ${'\\['.repeat(500_000)}\n`, 'SUMMARY.md');
    expect(long).toMatchObject({ kind: 'document', path: 'install.md', unclear: 'text-around-link' });

    const deep = Array.from({ length: 500 }, (_, i) => `${' '.repeat(i)}* [P${i}](p${i}.md)`).join('\n');
    let depth = 0;
    for (let items = parseSummary(deep, 'SUMMARY.md'); items.length > 0; depth += 1) {
      const first = items[0];
      items = first !== undefined && 'children' in first ? first.children : [];
    }
    expect(depth).toBe(64);
  });
});
