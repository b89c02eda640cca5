import { describe, expect, it } from 'vitest';
import { GitError } from '../../../src/git/git-error.js';
import { failedJobEvent } from '../../../src/notify/failed-job-event.js';
import { notificationBody, slackText } from '../../../src/notify/notification-body.js';
import type { NotificationEvent } from '../../../src/notify/notification-event.js';

const broken: NotificationEvent = {
  kind: 'broken-links',
  key: 'broken-links/spc_1/cr_1/rev_2',
  at: '2026-11-25T10:00:00.000Z',
  summary: '3 newly broken links in change request cr_1',
  mapping: 'docs <main>',
  newlyBroken: 3,
  links: [
    { target: 'gone.md', page: 'guides/setup', file: 'docs/guides/setup.md', line: 12 },
    { target: 'https://x.test/?a=1&b=<2>', page: 'intro' },
  ],
};

describe('a notification body', () => {
  it('is Slack text with each link at its file and line, the rest counted, markup escaped', () => {
    expect(slackText(broken).split('\n')).toEqual([
      '*docsync* broken links — docs &lt;main&gt;: 3 newly broken links in change request cr_1',
      '• `docs/guides/setup.md:12` → gone.md',
      '• `intro` → https://x.test/?a=1&amp;b=&lt;2&gt;',
      '… and 1 more',
    ]);
    expect(JSON.parse(notificationBody({ format: 'slack' }, broken))).toEqual({ text: slackText(broken) });
  });

  it("is docsync's JSON: the event as it is, with its source", () => {
    expect(JSON.parse(notificationBody({ format: 'json' }, broken))).toEqual({
      source: 'docsync',
      ...broken,
    });
  });
});

describe('the failed event', () => {
  const error = new GitError({
    code: 'GIT_AUTH',
    args: ['fetch', 'https://user:hunter2secret@git.test/x.git'],
    reason: 'exited with 128',
    stderr: "fatal: Authentication failed for 'https://user:hunter2secret@git.test/x.git'",
  });
  const at = new Date('2026-11-25T10:00:00Z');

  it('names the job, the code and a hint, without the credentials of a URL', () => {
    const event = failedJobEvent({
      id: 'import/docs/abc',
      name: 'import-content',
      payload: { mapping: 'docs' },
      space: 'spc_1',
      error,
      at,
    });
    expect(event).toMatchObject({
      kind: 'failed',
      key: 'failed/import/docs/abc',
      mapping: 'docs',
      space: 'spc_1',
    });
    expect(event?.summary).toMatch(/^import-content failed \(GIT_AUTH\): /);
    expect(JSON.stringify(event)).not.toContain('hunter2secret');
  });

  it('is never made for a scheduler run (failing says it once) nor for a notification (it would loop)', () => {
    const base = { payload: {}, space: undefined, error, at };
    expect(
      failedJobEvent({ ...base, id: 'repeat:poll-git/docs:1795638428983', name: 'poll-git' }),
    ).toBeUndefined();
    expect(failedJobEvent({ ...base, id: 'notify/abc/failed', name: 'send-notification' })).toBeUndefined();
  });
});
