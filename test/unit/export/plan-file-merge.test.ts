import { describe, expect, it } from 'vitest';
import { planFileMerge } from '../../../src/export/plan-file-merge.js';

const base = new Map([
  ['a.md', 'a0'],
  ['b.md', 'b0'],
  ['c.md', 'c0'],
  ['d.md', 'd0'],
]);

describe('planFileMerge', () => {
  it("takes the service's version of a file git did not change", () => {
    const head = new Map(base);
    const merge = planFileMerge(
      new Map([
        ['a.md', 'a1'],
        ['d.md', undefined],
        ['new.md', 'n1'],
      ]),
      {
        base,
        head,
      },
    );
    expect(merge).toEqual({ apply: ['a.md', 'd.md', 'new.md'], keepGit: [], conflicts: [] });
  });

  it("keeps git's version of a file only git changed, deleted or added", () => {
    const head = new Map([
      ['a.md', 'a2'],
      ['c.md', 'c0'],
      ['d.md', 'd0'],
      ['git.md', 'g1'],
    ]);
    // The space still holds the base's a.md and b.md (git changed one, deleted the other).
    const merge = planFileMerge(
      new Map([
        ['a.md', 'a0'],
        ['b.md', 'b0'],
      ]),
      { base, head },
    );
    expect(merge).toEqual({ apply: [], keepGit: ['a.md', 'b.md'], conflicts: [] });
  });

  it('sends a file both sides changed differently to the conflict, and only that file', () => {
    const head = new Map([...base, ['a.md', 'a2'], ['b.md', 'b2']]);
    const merge = planFileMerge(
      new Map([
        ['a.md', 'a1'], // both changed
        ['b.md', undefined], // git edited, the space deleted
        ['c.md', 'c1'], // the space alone
      ]),
      { base, head },
    );
    expect(merge).toEqual({ apply: ['c.md'], keepGit: [], conflicts: ['a.md', 'b.md'] });
  });

  it('with no base, counts every change as a conflict', () => {
    expect(planFileMerge(new Map([['a.md', 'a1']]), { base: undefined, head: base })).toEqual({
      apply: [],
      keepGit: [],
      conflicts: ['a.md'],
    });
  });
});
