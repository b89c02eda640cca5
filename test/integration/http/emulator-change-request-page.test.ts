// The local service's page of a change request: the address its `urls.app` gives opens in a browser
// (no token) as a readable page with the subject, number, status and the pages it changes.
import { describe, expect, it } from 'vitest';
import {
  addRevision,
  callApi,
  createTestSpace,
  startTestEmulator,
  testPage,
} from '../../support/start-test-emulator.js';

const HOSTILE = 'Fix <img src=x onerror=alert(1)> links';

/** The page's text between its tags, white space collapsed. */
const textOf = (markup: string) =>
  markup
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

describe("the local service's change request page", async () => {
  const test = await startTestEmulator();
  const space = await createTestSpace(test, 'Product docs');
  const intro = testPage('pg_intro', 'intro');
  const install = testPage('pg_install', 'install');
  addRevision(test.emulator, { spaceId: space }, [intro, testPage('pg_guide', 'guide', [install])]);
  const created = await callApi<{ id: string; number: number }>(
    `${test.baseUrl}/spaces/${space}/change-requests`,
    test.tokens.admin,
    'POST',
    { subject: HOSTILE },
  );
  // The change request edits intro, drops install (under guide) and adds faq.
  addRevision(test.emulator, { spaceId: space, changeRequestId: created.body.id }, [
    { ...intro, markdown: '# intro\n\nNew words.' },
    testPage('pg_guide', 'guide'),
    testPage('pg_faq', 'faq'),
  ]);
  const cr = await callApi<{ urls: { app: string } }>(
    `${test.baseUrl}/spaces/${space}/change-requests/${created.body.id}`,
    test.tokens.admin,
  );

  it('answers the address the API gives as its app URL, without a token, with the subject as text', async () => {
    expect(cr.body.urls.app).toBe(`${test.origin}/app/s/${space}/change-requests/${created.body.number}`);
    const response = await fetch(cr.body.urls.app);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    const page = await response.text();
    expect(page).not.toContain('<img');
    expect(page).toContain('<h1>Fix &lt;img src=x onerror=alert(1)&gt; links</h1>');
    const text = textOf(page);
    expect(text).toContain(
      `Product docs · change request #${created.body.number} · local documentation service`,
    );
    expect(text).toMatch(/ open Opened /);
  });

  it('lists the pages the change request changes against the main content', async () => {
    const text = textOf(await (await fetch(cr.body.urls.app)).text());
    expect(text).toContain(
      'Pages changed (3) Against the main content it was made from or last updated from; it holds 3 pages. Page Path Change Page faq faq added Page install guide/install removed Page intro intro changed',
    );
  });

  it('answers 404 for a number the space has not given, an address that names none, and an unknown space', async () => {
    const base = `${test.origin}/app/s/${space}/change-requests`;
    expect((await fetch(`${base}/${created.body.number + 1}`)).status).toBe(404);
    expect((await fetch(`${base}/first`)).status).toBe(404);
    expect((await fetch(`${test.origin}/app/s/spc_none/change-requests/1`)).status).toBe(404);
  });
});
