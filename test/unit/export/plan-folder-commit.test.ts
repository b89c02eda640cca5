import { describe, expect, it } from 'vitest';
import { blobId } from '../../../src/content/folder-bytes.js';
import { planFolderChanges } from '../../../src/export/plan-folder-commit.js';

const listed = (files: Record<string, string>) =>
  Object.entries(files).map(([path, text]) => ({ path, blob: blobId(Buffer.from(text), 40) }));
const folder = (files: Record<string, string>) =>
  new Map(Object.entries(files).map(([path, text]) => [path, Buffer.from(text)]));

describe('planFolderChanges', () => {
  const git = listed({
    'README.md': '# Home\n',
    'a.md': '# A\n',
    'gone.md': '# Gone\n',
    '.gitignore': 'x\n',
    'drafts/note.md': '# Draft\n',
  });
  const owned = new Set(['README.md', 'a.md', 'gone.md']);

  it('writes what differs, deletes owned files the space dropped, and leaves every other path', () => {
    const changes = planFolderChanges(
      git,
      owned,
      folder({ 'README.md': '# Home\n', 'a.md': '# A, edited\n', 'b.md': '# B\n' }),
    );
    expect([...changes.write.keys()]).toEqual(['a.md', 'b.md']);
    expect(changes.remove).toEqual(['gone.md']);
    expect([...changes.changes.keys()].sort()).toEqual(['a.md', 'b.md', 'gone.md']);
    expect(changes.changes.get('gone.md')).toBeUndefined();
    expect(changes.problems).toEqual([]);
  });

  it('deletes only what the space was known to hold: a file git added since the base stays', () => {
    const changes = planFolderChanges(git, owned, folder({ 'README.md': '# Home\n' }), new Set(['a.md']));
    expect(changes.remove).toEqual(['a.md']);
    expect(planFolderChanges(git, owned, folder({ 'README.md': '# Home\n' }), new Set()).remove).toEqual([]);
  });

  it('names a written path that would replace a file or a folder of git the export does not own', () => {
    const changes = planFolderChanges(
      git,
      owned,
      folder({ 'README.md': '# Home\n', '.gitignore/x.md': '# X\n', drafts: 'a file where a folder is' }),
    );
    expect(changes.problems).toEqual([
      {
        subject: 'path .gitignore/x.md',
        reason: 'is inside .gitignore, a file in git the export leaves alone',
      },
      {
        subject: 'path drafts',
        reason: 'is a folder in git holding drafts/note.md, which the export leaves alone',
      },
    ]);
  });
});
