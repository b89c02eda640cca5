// The schedulers of the git polls: one per repository and interval, so that the mappings of one
// repository are polled by one job that makes one look; a repository with one mapping keeps the
// mapping's own scheduler. The key names the repository without its address (which may hold a token).
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/load-config.js';
import { gitPollSchedules, repositoryKey } from '../../../src/producers/git-poll-schedules.js';

const TOKEN_REPO = 'https://x-access-token:ghs_secret@git.example.com/acme/handbook.git';

function mappings(lines: readonly string[]) {
  return parseConfig(
    `service: { baseUrl: "http://127.0.0.1:1/v1", token: t }\nmappings:\n${lines.map((line) => `  - ${line}`).join('\n')}\n`,
    'test.yaml',
    {},
  ).mappings;
}

const mapping = (name: string, repo: string, poll = '1m') =>
  `{ name: ${name}, space: spc_${name}, git: { repo: "${repo}", branch: main, dir: ${name}, poll: ${poll} } }`;

describe('gitPollSchedules', () => {
  it('keeps the mapping scheduler of a repository with one mapping', () => {
    expect(gitPollSchedules(mappings([mapping('guide', './guide.git')]))).toEqual([
      { key: 'guide', repeat: { every: 60_000 }, payload: { mapping: 'guide' }, spreadKey: './guide.git' },
    ]);
  });

  it('polls the mappings of one repository at one interval in one scheduler, in configuration order', () => {
    const wanted = gitPollSchedules(
      mappings([
        mapping('api', TOKEN_REPO),
        mapping('solo', './solo.git'),
        mapping('guide', TOKEN_REPO),
        mapping('slow', TOKEN_REPO, '5m'),
      ]),
    );
    expect(wanted).toEqual([
      {
        key: repositoryKey(TOKEN_REPO, 60_000),
        repeat: { every: 60_000 },
        payload: { mappings: ['api', 'guide'] },
        spreadKey: TOKEN_REPO,
      },
      { key: 'solo', repeat: { every: 60_000 }, payload: { mapping: 'solo' }, spreadKey: './solo.git' },
      { key: 'slow', repeat: { every: 300_000 }, payload: { mapping: 'slow' }, spreadKey: TOKEN_REPO },
    ]);
  });

  it('names a repository scheduler after the repository, never with its address or token', () => {
    const key = repositoryKey(TOKEN_REPO, 60_000);
    expect(key).toMatch(/^repo\.handbook\.[0-9a-f]{8}\.60000ms$/);
    expect(key).not.toContain('ghs_secret');
    expect(key).not.toContain('git.example.com');
    // Two repositories of one name are told apart; the scp-like and local forms have names too.
    expect(repositoryKey('git@git.example.com:other/handbook.git', 60_000)).not.toBe(key);
    expect(repositoryKey('git@git.example.com:other/handbook.git', 60_000)).toMatch(/^repo\.handbook\./);
    expect(repositoryKey('/srv/git/docs/', 1000)).toMatch(/^repo\.docs\.[0-9a-f]{8}\.1000ms$/);
  });
});

describe('repositoryKey', () => {
  it('names a repository by the last segment of its path, never by a token in its user, host or query', () => {
    const names = [
      'https://dev.example.com/acme/docs.git?private_token=glpat-SECRET123',
      'https://user:glpat-SECRET@host.example.com',
      'https://oauth2:glpat-SECRET@host.example.com/',
      'ssh://git@host.example.com:2222/acme/docs.git#glpat-SECRET',
      'git@host.example.com:acme/handbook.git',
      'C:\\repos\\guide',
    ].map((repo) => repositoryKey(repo, 60_000));
    for (const key of names) expect(key).not.toMatch(/SECRET|glpat|example/);
    expect(names.map((key) => key.split('.')[1])).toEqual([
      'docs',
      'repo',
      'repo',
      'docs',
      'handbook',
      'guide',
    ]);
  });
});
