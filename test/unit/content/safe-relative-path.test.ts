import { describe, expect, it } from 'vitest';
import { ContentError } from '../../../src/content/content-error.js';
import { safeRelativePath } from '../../../src/content/safe-relative-path.js';
import { thrownError } from '../../support/thrown-error.js';

const refusal = (raw: string) => thrownError(ContentError, () => safeRelativePath(raw));

describe('safeRelativePath', () => {
  it.each([
    ['guides/install.md', 'guides/install.md'],
    ['./guides//install.md', 'guides/install.md'],
    ['guides\\images\\logo.png', 'guides/images/logo.png'],
    ['guides/../faq.md', 'faq.md'],
    ['guides/', 'guides'],
    ['.gitbook/assets/logo.png', '.gitbook/assets/logo.png'],
    ['.github/workflows/ci.yml', '.github/workflows/ci.yml'],
    ['Über uns/日本語 ページ.md', 'Über uns/日本語 ページ.md'],
    ['console.md', 'console.md'],
    ['a'.repeat(255), 'a'.repeat(255)],
    ['日'.repeat(85), '日'.repeat(85)],
    ['😀'.repeat(63), '😀'.repeat(63)],
    ['nullable.md', 'nullable.md'],
    ['notes/x.con', 'notes/x.con'],
    [' CON.md', ' CON.md'],
    ['COM10.md', 'COM10.md'],
    ['guides/./a/../b.md', 'guides/b.md'],
  ])('normalises %j to %j', (raw, expected) => {
    expect(safeRelativePath(raw)).toBe(expected);
  });

  it.each([
    ['', 'path (empty) is empty'],
    ['.', 'path . names no file'],
    ['a/..', 'path a/.. names no file'],
    ['/etc/passwd', 'path /etc/passwd is absolute'],
    ['C:\\Windows\\system.ini', 'path C:\\Windows\\system.ini is absolute'],
    ['c:relative.md', 'path c:relative.md is absolute'],
    ['\\\\server\\share\\x.md', 'path \\\\server\\share\\x.md is absolute'],
    ['../../etc/passwd', 'path ../../etc/passwd leaves the root folder'],
    ['guides/../../x.md', 'path guides/../../x.md leaves the root folder'],
    ['guides\\..\\..\\x.md', 'path guides\\..\\..\\x.md leaves the root folder'],
    ['a\u0000b.md', 'path a\\x00b.md contains a control character'],
    ['a\nb.md', 'path a\\x0ab.md contains a control character'],
    ['a\u009bb.md', 'path a\\x9bb.md contains a control character'],
    ['a\u007f.md', 'path a\\x7f.md contains a control character'],
    ['日本/a\u001f😀.md', 'path 日本/a\\x1f😀.md contains a control character'],
    ['a\u2028\u0001.md', 'path a\\u2028\\x01.md contains a control character'],
    ['.git/config', 'path .git/config contains a .git folder'],
    ['docs/.GIT/hooks/post-checkout', 'path docs/.GIT/hooks/post-checkout contains a .git folder'],
    ['guides./a.md', 'path guides./a.md has a name ending in a dot or a space (guides.)'],
    ['guides /a.md', 'path guides /a.md has a name ending in a dot or a space (guides )'],
    ['notes:stream.md', 'path notes:stream.md has a character Windows refuses (notes:stream.md)'],
    ['what?.md', 'path what?.md has a character Windows refuses (what?.md)'],
    ['CON', 'path CON uses the Windows device name CON'],
    ['docs/nul.md', 'path docs/nul.md uses the Windows device name nul'],
    ['com1.txt', 'path com1.txt uses the Windows device name com1'],
    ['Lpt9.tar.gz', 'path Lpt9.tar.gz uses the Windows device name Lpt9'],
    ['CON .md', 'path CON .md uses the Windows device name CON'],
    ['docs/aux\u00a0.txt', 'path docs/aux\u00a0.txt uses the Windows device name aux'],
    ['conout$.log', 'path conout$.log uses the Windows device name conout$'],
    ['COM².md', 'path COM².md uses the Windows device name COM²'],
    ['a'.repeat(256), `path ${'a'.repeat(256)} has a name longer than 255 bytes`],
    ['日'.repeat(86), `path ${'日'.repeat(86)} has a name longer than 255 bytes`],
    ['😀'.repeat(64), `path ${'😀'.repeat(64)} has a name longer than 255 bytes`],
  ])('refuses %j', (raw, message) => {
    const error = refusal(raw);
    expect(error.code).toBe('PATH_UNSAFE');
    expect(error.message).toBe(message);
  });

  it('refuses a name longer than 255 bytes of UTF-8, even under 255 characters', () => {
    const name = 'é'.repeat(128); // 256 bytes
    expect(refusal(`docs/${name}.md`).message).toMatch(/longer than 255 bytes$/);
  });

  it('names the path in the caller’s words', () => {
    expect(() =>
      safeRelativePath('../../etc/passwd', { subject: 'archive entry', root: 'archive root' }),
    ).toThrow('archive entry ../../etc/passwd leaves the archive root');
  });

  it('returns a path that is already normal unchanged, so normalising twice changes nothing', () => {
    for (const raw of ['a/./b\\c.md', 'x/../y/z.png', './README.md']) {
      const once = safeRelativePath(raw);
      expect(safeRelativePath(once)).toBe(once);
    }
  });
});
