import { describe, expect, it } from 'vitest';
import type { BrokenLink } from '../../../src/links/broken-link.js';
import { linkPlace } from '../../../src/links/link-place.js';
import { placeBrokenLinks, repositoryPath } from '../../../src/links/place-broken-links.js';
import { renderLinkComment } from '../../../src/links/render-link-comment.js';

const guide = { pageId: 'p1', pageTitle: 'Guide', pagePath: 'guide', sourcePath: 'guides/guide.md' };
const sources = new Map([
  [
    'guides/guide.md',
    [
      '# Guide',
      '',
      'See [old](old.md), `[code](old.md)` and [the image](<my image.png>).',
      '',
      '<figure><img src="old.md"></figure>',
    ].join('\n'),
  ],
]);

describe('placeBrokenLinks', () => {
  it('gives each place a broken target is written its own line, in the file under the mapping folder', () => {
    const placed = placeBrokenLinks([{ ...guide, target: 'old.md' }], 'docs', sources);
    expect(placed).toEqual([
      { ...guide, target: 'old.md', file: 'docs/guides/guide.md', line: 3, column: 5 },
      { ...guide, target: 'old.md', file: 'docs/guides/guide.md', line: 5, column: 19 },
    ]);
    expect(placed.map(linkPlace)).toEqual(['docs/guides/guide.md:3:5', 'docs/guides/guide.md:5:19']);
  });

  it('matches a target the service names percent-encoded', () => {
    const [placed] = placeBrokenLinks([{ ...guide, target: 'my%20image.png' }], '.', sources);
    expect(placed).toMatchObject({ file: 'guides/guide.md', line: 3, column: 41 });
  });

  it('invents no line: a page made in the service, a file not read, a target not written as named', () => {
    const made: BrokenLink = { pageId: 'p2', pageTitle: 'Notes', noGitFile: true, target: 'x.md' };
    const unread: BrokenLink = { ...guide, sourcePath: 'other.md', target: 'x.md' };
    const byId: BrokenLink = { ...guide, target: 'page_123' };
    const placed = placeBrokenLinks([made, unread, byId], 'docs', sources);
    expect(placed).toEqual([
      made,
      { ...unread, file: 'docs/other.md' },
      { ...byId, file: 'docs/guides/guide.md' },
    ]);
    expect(placed.map(linkPlace)).toEqual([
      'no file in git: the page was made in the service',
      'docs/other.md, line not known',
      'docs/guides/guide.md, line not known',
    ]);
  });

  it('keeps a page file that would leave the folder out of the repository paths', () => {
    const [placed] = placeBrokenLinks(
      [{ ...guide, sourcePath: '../../etc/passwd', target: 'x' }],
      'docs',
      sources,
    );
    expect(placed?.file).toBeUndefined();
  });

  it("places a page in git under .gitbook.yaml's root, the configured readme under its own name", () => {
    const layout = { root: 'content', readme: 'start.md' };
    const readme: BrokenLink = {
      pageId: 'p0',
      pageTitle: 'Start',
      sourcePath: 'README.md',
      target: 'old.md',
    };
    const texts = new Map([...sources, ['README.md', '# Start\n\n[old](old.md)\n']]);
    const placed = placeBrokenLinks([readme, { ...guide, target: 'old.md' }], 'docs', texts, layout);
    expect(placed.map(linkPlace)).toEqual([
      'docs/content/start.md:3:1',
      'docs/content/guides/guide.md:3:5',
      'docs/content/guides/guide.md:5:19',
    ]);
    expect(repositoryPath('.', 'README.md', { root: '.', readme: 'start.md' })).toBe('start.md');
    expect(repositoryPath('.', 'README.md', { root: 'content', readme: 'README.md' })).toBe(
      'content/README.md',
    );
  });
});

describe('the link comment with places', () => {
  it('names the file and line of each place, and says why a line is not known', () => {
    const placed = placeBrokenLinks(
      [
        { ...guide, target: 'old.md' },
        { pageId: 'p2', pageTitle: 'Notes', pagePath: 'notes', noGitFile: true, target: 'x.md' },
      ],
      'docs',
      sources,
    );
    const markdown = renderLinkComment({ broken: placed, warnings: { listed: [], count: 0 } });
    expect(markdown).toContain(
      [
        '### 3 broken links',
        '',
        'Pages of this change request that link to something that does not exist:',
        '',
        '- `guide`',
        '  - `old.md` at `docs/guides/guide.md:3:5`',
        '  - `old.md` at `docs/guides/guide.md:5:19`',
        '- `notes`',
        '  - `x.md` (no file in git: the page was made in the service)',
      ].join('\n'),
    );
  });
});
