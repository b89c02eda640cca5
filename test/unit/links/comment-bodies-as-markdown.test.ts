// The public document lets the service give a comment's body as a structured document, where
// docsync's marker cannot be seen: docsync reads the threads it searches for its link comment with
// `format=markdown`. A canned service answers documents unless asked for markdown.
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createDocsApiClient } from '../../../src/api/create-docs-api-client.js';
import { changeRequestSchema } from '../../../src/api/schemas/change-request-schema.js';
import { NO_IMPORT_WARNINGS } from '../../../src/links/import-warnings-for.js';
import { keepLinkComment } from '../../../src/links/link-comment.js';
import { LINK_COMMENT_MARKER, renderLinkComment } from '../../../src/links/render-link-comment.js';
import { MemoryLinkCheckStore } from '../../../src/state/memory-link-check-store.js';
import { readMergeFacts } from '../../../src/upkeep/read-merge-facts.js';
import { sendJson, startCannedServer } from '../api/canned-server.js';
import { changeRequest, comment } from '../api/fixtures.js';

const findings = {
  broken: [{ pageId: 'p1', pageTitle: 'Intro', target: 'gone.md' }],
  warnings: NO_IMPORT_WARNINGS,
};
const linkComment = {
  ...comment('c-link'),
  body: { markdown: renderLinkComment(findings) },
  permissions: { edit: true },
};
const personComment = { ...comment('c-person'), body: { markdown: 'Please fix the intro.' } };

/** As a service may answer without `format=markdown`: the bodies as documents. */
function asDocument(item: { body: { markdown: string } }) {
  const text = item.body.markdown.replace(LINK_COMMENT_MARKER, '').trim();
  const paragraph = { object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ text }] }] };
  return { ...item, body: { document: { object: 'document', data: {}, nodes: [paragraph] } } };
}

async function service() {
  const server = await startCannedServer((request, response) => {
    const url = new URL(request.url, 'http://service.test');
    if (url.pathname.endsWith('/comments')) {
      const items = [linkComment, personComment];
      const markdown = url.searchParams.get('format') === 'markdown';
      sendJson(response, 200, { items: markdown ? items : items.map(asDocument) });
      return;
    }
    if (url.pathname.endsWith('/reviews')) {
      sendJson(response, 200, { items: [] });
      return;
    }
    sendJson(response, 404, { error: { code: 404, message: 'not here' } });
  });
  const api = createDocsApiClient(
    { baseUrl: server.baseUrl, token: 't', timeout: 2000 },
    { retry: { maxAttempts: 1 } },
  );
  return { server, api };
}

describe('comment bodies read as markdown', () => {
  it('finds the link comment by its marker, asking for markdown bodies', async () => {
    const { server, api } = await service();
    const outcome = await keepLinkComment(
      { api, log: pino({ level: 'silent' }), signal: new AbortController().signal, dryRun: true },
      { spaceId: 'sp1', changeRequestId: 'cr1' },
      findings,
    );
    // Found and up to date: no second comment is planned.
    expect(outcome).toEqual({ action: 'leave', commentId: 'c-link' });
    expect(
      server.requests.map((request) => new URL(request.url, 'http://x').searchParams.get('format')),
    ).toEqual(['markdown']);
    await api.close();
  });

  it("counts people's open comments for a merge, leaving docsync's own out", async () => {
    const { server, api } = await service();
    const cr = changeRequestSchema.parse({ ...changeRequest('cr1'), comments: 2 });
    const facts = await readMergeFacts(api, new MemoryLinkCheckStore(), 'sp1', cr);
    expect(facts.openComments).toBe(1);
    const commentsRead = server.requests.find((request) => request.url.includes('/comments'));
    expect(commentsRead?.url).toContain('format=markdown');
    await api.close();
  });
});
