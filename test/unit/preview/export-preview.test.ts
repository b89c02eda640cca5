import { describe, expect, it } from 'vitest';
import { planExportPreview } from '../../../src/export/plan-export.js';

describe('planExportPreview', () => {
  it('names each file a dry-run export would write, delete, leave to git or put in conflict, by path', () => {
    const merge = { apply: ['guides/new.md', 'old.md'], keepGit: ['setup.md'], conflicts: ['faq.md'] };
    const changes = new Map<string, Buffer | undefined>([
      ['guides/new.md', Buffer.from('# New\n')],
      ['old.md', undefined],
      ['setup.md', Buffer.from('# Setup\n')],
      ['faq.md', Buffer.from('# FAQ\n')],
    ]);
    expect(planExportPreview(merge, changes)).toEqual({
      actions: { write: 1, delete: 1, 'keep-git': 1, conflict: 1 },
      firstFiles: ['conflict faq.md', 'write guides/new.md', 'delete old.md', 'keep-git setup.md'],
    });
  });

  it('lists the first files by path and counts them all', () => {
    const apply = Array.from({ length: 120 }, (_, n) => `p${String(119 - n).padStart(3, '0')}.md`);
    const changes = new Map(apply.map((path) => [path, Buffer.from('x')]));
    const preview = planExportPreview({ apply, keepGit: [], conflicts: [] }, changes, 3);
    expect(preview).toEqual({
      actions: { write: 120, delete: 0, 'keep-git': 0, conflict: 0 },
      firstFiles: ['write p000.md', 'write p001.md', 'write p002.md'],
    });
  });
});
