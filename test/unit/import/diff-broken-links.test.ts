import { describe, expect, it } from 'vitest';
import { diffBrokenLinks } from '../../../src/import/diff-broken-links.js';
import type { BrokenLink } from '../../../src/links/broken-link.js';

const link = (pageId: string, target: string): BrokenLink => ({ pageId, pageTitle: pageId, target });

describe('diffBrokenLinks', () => {
  it('tells new, fixed and still broken links apart by page and target', () => {
    const diff = diffBrokenLinks(
      [link('p1', 'a.md'), link('p2', 'b.md')],
      [link('p2', 'b.md'), link('p1', 'c.md'), link('p3', 'a.md')],
    );
    expect(diff.broken).toEqual([link('p1', 'c.md'), link('p3', 'a.md')]);
    expect(diff.fixed).toEqual([link('p1', 'a.md')]);
    expect(diff.stillBroken).toEqual([link('p2', 'b.md')]);
  });

  it('reports every link as new on the first check', () => {
    expect(diffBrokenLinks([], [link('p1', 'a.md')]).broken).toHaveLength(1);
  });
});
