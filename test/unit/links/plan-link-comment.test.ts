import { describe, expect, it } from 'vitest';
import type { Comment } from '../../../src/api/schemas/comment-schema.js';
import type { BrokenLink } from '../../../src/import/change-request-links.js';
import {
  type ExistingLinkComment,
  findLinkComment,
  planLinkComment,
} from '../../../src/links/plan-link-comment.js';
import { LINK_COMMENT_MARKER, renderLinkComment } from '../../../src/links/render-link-comment.js';

const link = (target: string): BrokenLink => ({
  pageId: 'p1',
  pageTitle: 'Install',
  pagePath: 'install',
  target,
});
const one = [link('missing.md')];
const two = [link('missing.md'), link('gone.md')];

const existing = (broken: readonly BrokenLink[], resolved = false): ExistingLinkComment => ({
  id: 'cmt_1',
  markdown: renderLinkComment(broken),
  resolved,
});

describe('planLinkComment', () => {
  it('creates the comment when links are broken and none exists', () => {
    expect(planLinkComment(undefined, one)).toEqual({ action: 'create', markdown: renderLinkComment(one) });
  });

  it('posts nothing when nothing is broken and nothing was said', () => {
    expect(planLinkComment(undefined, [])).toEqual({ action: 'leave' });
  });

  it('edits the body in place when the list changes', () => {
    expect(planLinkComment(existing(one), two)).toEqual({
      action: 'edit',
      commentId: 'cmt_1',
      changes: { body: { markdown: renderLinkComment(two) } },
    });
  });

  it('leaves an open comment whose list is unchanged', () => {
    expect(planLinkComment(existing(two), [...two].reverse())).toEqual({
      action: 'leave',
      commentId: 'cmt_1',
    });
  });

  it('resolves the comment, saying so, once every link is fixed', () => {
    expect(planLinkComment(existing(two), [])).toEqual({
      action: 'resolve',
      commentId: 'cmt_1',
      changes: { body: { markdown: renderLinkComment([]) }, resolved: true },
    });
  });

  it('leaves a resolved comment alone while nothing is broken', () => {
    expect(planLinkComment(existing([], true), [])).toEqual({ action: 'leave', commentId: 'cmt_1' });
  });

  it('reopens a resolved comment with the new list when links break again', () => {
    expect(planLinkComment(existing([], true), one)).toEqual({
      action: 'reopen',
      commentId: 'cmt_1',
      changes: { body: { markdown: renderLinkComment(one) }, resolved: false },
    });
  });

  it('respects a person resolving the comment until the list changes', () => {
    expect(planLinkComment(existing(one, true), one)).toEqual({ action: 'leave', commentId: 'cmt_1' });
    expect(planLinkComment(existing(one, true), two)).toMatchObject({ action: 'reopen' });
  });
});

describe('findLinkComment', () => {
  const comment = (id: string, markdown: string, extra: Partial<Comment> = {}): Comment => ({
    id,
    body: { markdown },
    status: 'open',
    postedAt: '2026-01-01T10:00:00Z',
    ...extra,
  });

  it('finds the marked comment among the others, resolved or not', () => {
    const found = findLinkComment([
      comment('c1', 'Looks good'),
      comment('c2', `${LINK_COMMENT_MARKER}\n### 1 broken link`, { status: 'resolved' }),
    ]);
    expect(found).toEqual({
      comment: { id: 'c2', markdown: `${LINK_COMMENT_MARKER}\n### 1 broken link`, resolved: true },
      duplicates: 0,
    });
  });

  it('skips a comment quoting the marker that docsync cannot edit, and keeps the oldest of several', () => {
    const marked = `${LINK_COMMENT_MARKER}\nlist`;
    const found = findLinkComment([
      comment('c9', marked, { permissions: { edit: false }, postedAt: '2026-01-01T08:00:00Z' }),
      comment('c3', marked, { postedAt: '2026-01-01T12:00:00+02:00' }),
      comment('c2', marked, { postedAt: '2026-01-01T11:00:00Z' }),
    ]);
    expect(found?.comment.id).toBe('c3');
    expect(found?.duplicates).toBe(1);
  });

  it('finds nothing without the marker', () => {
    expect(findLinkComment([comment('c1', 'broken links: none')])).toBeUndefined();
  });
});
