import { describe, expect, it } from 'vitest';
import type { Comment } from '../../../src/api/schemas/comment-schema.js';
import type { BrokenLink } from '../../../src/links/broken-link.js';
import { type ImportWarnings, NO_IMPORT_WARNINGS } from '../../../src/links/import-warnings-for.js';
import {
  type ExistingLinkComment,
  findLinkComment,
  planLinkComment,
} from '../../../src/links/plan-link-comment.js';
import {
  LINK_COMMENT_MARKER,
  type LinkCommentFindings,
  renderLinkComment,
} from '../../../src/links/render-link-comment.js';

const link = (target: string): BrokenLink => ({
  pageId: 'p1',
  pageTitle: 'Install',
  pagePath: 'install',
  target,
});
const one = [link('missing.md')];
const two = [link('missing.md'), link('gone.md')];

const warned: ImportWarnings = {
  listed: [
    {
      code: 'SUMMARY_MISSING_FILE',
      file: 'SUMMARY.md',
      line: 4,
      message: 'guides/gone.md is not in the folder: the entry is skipped.',
    },
  ],
  count: 1,
};

/** Broken links alone, or with the import's warnings. */
const found = (broken: readonly BrokenLink[], warnings = NO_IMPORT_WARNINGS): LinkCommentFindings => ({
  broken,
  warnings,
});

const existing = (findings: LinkCommentFindings, resolved = false): ExistingLinkComment => ({
  id: 'cmt_1',
  markdown: renderLinkComment(findings),
  resolved,
});

describe('planLinkComment', () => {
  it('creates the comment when links are broken and none exists', () => {
    expect(planLinkComment(undefined, found(one))).toEqual({
      action: 'create',
      markdown: renderLinkComment(found(one)),
    });
  });

  it('posts nothing when nothing is broken and nothing was said', () => {
    expect(planLinkComment(undefined, found([]))).toEqual({ action: 'leave' });
  });

  it('edits the body in place when the list changes', () => {
    expect(planLinkComment(existing(found(one)), found(two))).toEqual({
      action: 'edit',
      commentId: 'cmt_1',
      changes: { body: { markdown: renderLinkComment(found(two)) } },
    });
  });

  it('leaves an open comment whose list is unchanged', () => {
    expect(planLinkComment(existing(found(two)), found([...two].reverse()))).toEqual({
      action: 'leave',
      commentId: 'cmt_1',
    });
  });

  it('resolves the comment, saying so, once every link is fixed', () => {
    expect(planLinkComment(existing(found(two)), found([]))).toEqual({
      action: 'resolve',
      commentId: 'cmt_1',
      changes: { body: { markdown: renderLinkComment(found([])) }, resolved: true },
    });
  });

  it('leaves a resolved comment alone while nothing is broken', () => {
    expect(planLinkComment(existing(found([]), true), found([]))).toEqual({
      action: 'leave',
      commentId: 'cmt_1',
    });
  });

  it('reopens a resolved comment with the new list when links break again', () => {
    expect(planLinkComment(existing(found([]), true), found(one))).toEqual({
      action: 'reopen',
      commentId: 'cmt_1',
      changes: { body: { markdown: renderLinkComment(found(one)) }, resolved: false },
    });
  });

  it('respects a person resolving the comment until the list changes', () => {
    expect(planLinkComment(existing(found(one), true), found(one))).toEqual({
      action: 'leave',
      commentId: 'cmt_1',
    });
    expect(planLinkComment(existing(found(one), true), found(two))).toMatchObject({ action: 'reopen' });
  });
});

describe('planLinkComment with the import warnings', () => {
  it('creates the comment for warnings alone, with no broken link', () => {
    expect(planLinkComment(undefined, found([], warned))).toEqual({
      action: 'create',
      markdown: renderLinkComment(found([], warned)),
    });
  });

  it('keeps the comment open while warnings remain after every link is fixed', () => {
    expect(planLinkComment(existing(found(one, warned)), found([], warned))).toEqual({
      action: 'edit',
      commentId: 'cmt_1',
      changes: { body: { markdown: renderLinkComment(found([], warned)) } },
    });
  });

  it('resolves it once neither broken links nor warnings remain', () => {
    expect(planLinkComment(existing(found([], warned)), found([]))).toEqual({
      action: 'resolve',
      commentId: 'cmt_1',
      changes: { body: { markdown: renderLinkComment(found([])) }, resolved: true },
    });
  });

  it('reopens a resolved comment when an import brings warnings, and leaves it while they are the same', () => {
    expect(planLinkComment(existing(found([]), true), found([], warned))).toMatchObject({
      action: 'reopen',
      changes: { resolved: false },
    });
    expect(planLinkComment(existing(found(one, warned)), found(one, warned))).toEqual({
      action: 'leave',
      commentId: 'cmt_1',
    });
  });

  it('edits the comment when only the count of warnings past the stored ones changes', () => {
    expect(planLinkComment(existing(found([], warned)), found([], { ...warned, count: 80 }))).toMatchObject({
      action: 'edit',
    });
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
