import { describe, expect, it } from 'vitest';
import { parsePushEvent } from '../../../src/http/hooks/parse-push-event.js';

const AFTER = 'a'.repeat(40);
const BEFORE = 'b'.repeat(40);
const ZERO = '0'.repeat(40);

/** The parts of a GitHub push payload docsync reads, among many it ignores. */
const githubPayload = (over: Record<string, unknown> = {}) => ({
  ref: 'refs/heads/main',
  before: BEFORE,
  after: AFTER,
  created: false,
  deleted: false,
  forced: false,
  repository: {
    id: 1,
    full_name: 'acme/docs',
    html_url: 'https://github.com/acme/docs',
    url: 'https://github.com/acme/docs',
    git_url: 'git://github.com/acme/docs.git',
    ssh_url: 'git@github.com:acme/docs.git',
    clone_url: 'https://github.com/acme/docs.git',
    svn_url: 'https://github.com/acme/docs',
  },
  pusher: { name: 'ada', email: 'ada@example.com' },
  commits: [{ id: AFTER, message: 'docs: install' }],
  ...over,
});

const gitlabPayload = (over: Record<string, unknown> = {}) => ({
  object_kind: 'push',
  event_name: 'push',
  ref: 'refs/heads/main',
  before: BEFORE,
  after: AFTER,
  checkout_sha: AFTER,
  project: {
    id: 15,
    web_url: 'https://gitlab.example.com/group/docs',
    git_ssh_url: 'git@gitlab.example.com:group/docs.git',
    git_http_url: 'https://gitlab.example.com/group/docs.git',
    path_with_namespace: 'group/docs',
  },
  repository: {
    name: 'docs',
    url: 'git@gitlab.example.com:group/docs.git',
    homepage: 'https://gitlab.example.com/group/docs',
    git_http_url: 'https://gitlab.example.com/group/docs.git',
    git_ssh_url: 'git@gitlab.example.com:group/docs.git',
  },
  ...over,
});

describe('parsePushEvent', () => {
  it('reads a GitHub push with every repository URL once', () => {
    const parsed = parsePushEvent('github', githubPayload());
    expect(parsed).toEqual({
      ok: true,
      push: {
        provider: 'github',
        ref: 'refs/heads/main',
        before: BEFORE,
        after: AFTER,
        repository: {
          urls: [
            'https://github.com/acme/docs.git',
            'git@github.com:acme/docs.git',
            'git://github.com/acme/docs.git',
            'https://github.com/acme/docs',
          ],
        },
      },
    });
  });

  it('reads a GitLab push from its project and repository URLs', () => {
    const parsed = parsePushEvent('gitlab', gitlabPayload());
    expect(parsed.ok && parsed.push).toEqual({
      provider: 'gitlab',
      ref: 'refs/heads/main',
      before: BEFORE,
      after: AFTER,
      repository: {
        urls: [
          'https://gitlab.example.com/group/docs.git',
          'git@gitlab.example.com:group/docs.git',
          'https://gitlab.example.com/group/docs',
        ],
      },
    });
  });

  it('marks a deleted branch, from GitHub`s flag or from an after of zeros', () => {
    const github = parsePushEvent('github', githubPayload({ deleted: true, after: ZERO }));
    expect(github).toMatchObject({ ok: true, push: { deleted: true } });
    const gitlab = parsePushEvent('gitlab', gitlabPayload({ after: ZERO, checkout_sha: null }));
    expect(gitlab).toMatchObject({ ok: true, push: { deleted: true } });
  });

  it('leaves before out of a first push that has none', () => {
    const parsed = parsePushEvent('gitlab', gitlabPayload({ before: null }));
    expect(parsed).toMatchObject({ ok: true, push: { after: AFTER } });
    expect(parsed.ok && 'before' in parsed.push).toBe(false);
  });

  it('names the key paths of a payload it cannot read', () => {
    expect(parsePushEvent('github', { ref: 'refs/heads/main', after: 'nope' })).toEqual({
      ok: false,
      issues: ['after: expected a commit id', expect.stringMatching(/^repository: /)],
    });
    expect(parsePushEvent('github', 'not an object')).toMatchObject({ ok: false });
  });

  it('refuses a push that names no repository URL', () => {
    expect(parsePushEvent('gitlab', gitlabPayload({ project: null, repository: { name: 'docs' } }))).toEqual({
      ok: false,
      issues: ['repository: the push names no repository URL'],
    });
  });
});
