import { describe, expect, it } from 'vitest';
import { matchesRepository, normalizeGitUrl } from '../../../src/http/hooks/matches-repository.js';

const GITHUB_PUSH_URLS = [
  'https://github.com/Acme/Docs.git',
  'git@github.com:Acme/Docs.git',
  'git://github.com/Acme/Docs.git',
  'https://github.com/Acme/Docs',
];

describe('matchesRepository', () => {
  it.each([
    'https://github.com/acme/docs.git',
    'https://github.com/acme/docs',
    'https://github.com/acme/docs/',
    'https://GitHub.com/Acme/Docs.git',
    'https://x-access-token:ghp_secret@github.com/acme/docs.git',
    'https://github.com:443/acme/docs.git',
    'http://github.com/acme/docs',
    'ssh://git@github.com/acme/docs.git',
    'ssh://git@github.com:22/acme/docs.git',
    'git+ssh://git@github.com/acme/docs',
    'git@github.com:acme/docs.git',
    'git@github.com:/acme/docs.git',
    'github.com:acme/docs',
  ])('matches %s to a GitHub push of Acme/Docs', (repo) => {
    expect(matchesRepository(repo, GITHUB_PUSH_URLS)).toBe(true);
  });

  it.each([
    'https://github.com/acme/docs-old.git',
    'https://github.com/acme/other.git',
    'https://gitlab.com/acme/docs.git',
    'git@github.com:acme/docs/sub.git',
    'https://github.com/acme',
    '/srv/git/docs.git',
    '',
    'not a url',
  ])('does not match %s', (repo) => {
    expect(matchesRepository(repo, GITHUB_PUSH_URLS)).toBe(false);
  });

  it('matches GitLab subgroups over https and ssh', () => {
    const urls = [
      'https://gitlab.example.com/group/sub/docs.git',
      'git@gitlab.example.com:group/sub/docs.git',
      'https://gitlab.example.com/group/sub/docs',
    ];
    expect(matchesRepository('ssh://git@gitlab.example.com:2222/group/sub/docs.git', urls)).toBe(true);
    expect(matchesRepository('https://gitlab.example.com/group/docs.git', urls)).toBe(false);
  });

  it('matches local paths and file URLs to each other', () => {
    expect(matchesRepository('/srv/git/docs.git', ['file:///srv/git/docs'])).toBe(true);
    expect(matchesRepository('file:///srv/git/docs.git', ['/srv/git/docs/'])).toBe(true);
    expect(matchesRepository('/srv/git/docs.git', ['/srv/git/other.git'])).toBe(false);
  });

  it('matches nothing against no URLs', () => {
    expect(matchesRepository('https://github.com/acme/docs.git', [])).toBe(false);
  });
});

describe('normalizeGitUrl', () => {
  it('reduces remotes to host and path, without credentials or port', () => {
    expect(normalizeGitUrl('https://user:pass@Git.Example.com:8443//Team//Docs.git/')).toBe(
      'git.example.com/team/docs',
    );
    expect(normalizeGitUrl('git@[::1]:team/docs.git')).toBe('[::1]/team/docs');
    expect(normalizeGitUrl('ssh://git@[::1]:22/team/docs.git')).toBe('[::1]/team/docs');
    expect(normalizeGitUrl('C:\\repos\\docs.git')).toBe('/c:/repos/docs');
  });

  it('gives nothing for text that is not a remote', () => {
    for (const text of ['', '   ', 'https://', 'https://github.com/', 'two words']) {
      expect(normalizeGitUrl(text), text).toBeUndefined();
    }
  });
});
