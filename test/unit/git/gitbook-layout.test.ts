import { describe, expect, it } from 'vitest';
import { ContentError } from '../../../src/content/content-error.js';
import { DEFAULT_GITBOOK_LAYOUT, readGitbookLayout } from '../../../src/content/gitbook-layout.js';
import { thrownError } from '../../support/thrown-error.js';

const failure = (text: string) => thrownError(ContentError, () => readGitbookLayout(text));

describe('readGitbookLayout', () => {
  it('gives the defaults without a file, for an empty one, and for one without the keys', () => {
    expect(readGitbookLayout(undefined)).toEqual({ root: '.', readme: 'README.md', summary: 'SUMMARY.md' });
    expect(readGitbookLayout('')).toEqual(DEFAULT_GITBOOK_LAYOUT);
    expect(readGitbookLayout('redirects:\n  old: new.md\n')).toEqual(DEFAULT_GITBOOK_LAYOUT);
    expect(readGitbookLayout('root:\nstructure:\n')).toEqual(DEFAULT_GITBOOK_LAYOUT);
  });

  it('reads root, readme and summary, normalised', () => {
    const text = 'root: ./docs/site/\nstructure:\n  readme: ./intro.md\n  summary: nav\\toc.md\n';
    expect(readGitbookLayout(text)).toEqual({ root: 'docs/site', readme: 'intro.md', summary: 'nav/toc.md' });
  });

  it('takes ./, . and an empty root as the folder itself', () => {
    for (const root of ['./', '.', '""', '/']) expect(readGitbookLayout(`root: ${root}\n`).root).toBe('.');
  });

  it.each([
    ['root: ../outside\n', 'root', 'leaves'],
    ['root: [docs]\n', 'root', 'expected string'],
    ['structure:\n  readme: intro.txt\n', 'structure.readme', 'must name a .md file'],
    ['structure:\n  summary: ../SUMMARY.md\n', 'structure.summary', 'leaves'],
    ['structure:\n  readme: 12\n', 'structure.readme', 'expected string'],
    ['structure: yes\n', 'structure', ''],
  ])('refuses %j, naming %s', (text, key, reason) => {
    const error = failure(text);
    expect(error.code).toBe('CONTENT_INVALID');
    expect(error.path).toBe('.gitbook.yaml');
    expect(error.message).toContain(`.gitbook.yaml ${key} `);
    expect(error.message).toContain(reason);
  });

  it('refuses text that is not YAML, or a document that is not a mapping', () => {
    expect(failure('root: [unclosed\n').message).toBe('.gitbook.yaml is not valid YAML');
    expect(failure('root: a\nroot: b\n').message).toBe('.gitbook.yaml is not valid YAML');
    expect(failure('- a list\n').code).toBe('CONTENT_INVALID');
  });
});
