// What the site tests share: the local service, docsync's client for three roles talking to it
// through a recording proxy, and a check of every answer (and request body) recorded since the last
// check against the public document.
import { expect } from 'vitest';
import type { DocsApiClient } from '../../src/api/docs-api-client.js';
import { checkErrorAnswer } from './check-error-answer.js';
import { documentRouteOf } from './document-route.js';
import { type RecordedAnswer, type RecordingProxy, startRecordingProxy } from './recording-proxy.js';
import { checkRequest, checkResponse } from './service-document.js';
import { startTestEmulator, type TestEmulator } from './start-test-emulator.js';
import { testApiClient } from './test-api-client.js';

export interface SiteTestWorld {
  test: TestEmulator;
  orgId: string;
  proxy: RecordingProxy;
  admin: DocsApiClient;
  reviewer: DocsApiClient;
  reader: DocsApiClient;
  /** A new space of the organization, made with docsync's client. */
  newSpace(title: string): Promise<string>;
  /**
   * Checks the answers recorded since the last call against the document (successes against the
   * operation's schema for their status, errors against its error shape) and the accepted request
   * bodies against its request schemas; fails the test on any difference. The number of answers checked.
   */
  expectDocumented(): number;
}

/** Problems of one recorded exchange; none when the document accepts it. */
export function documentProblems(answer: RecordedAnswer): string[] {
  const route = documentRouteOf(answer.url);
  const where = `${answer.method} ${answer.url} ${answer.status}`;
  if (route === undefined) return [`${where}: the document has no path for it`];
  const problems: string[] = [];
  if (answer.status >= 400) {
    problems.push(...checkErrorAnswer(answer.method, route, answer.status, answer.body).errors);
  } else if (answer.status !== 204 && answer.status !== 205) {
    const check = checkResponse(answer.method, route, answer.status, answer.body);
    if (!check.known) problems.push('the document has no schema for this answer');
    problems.push(...check.errors);
  } else if (answer.body !== undefined) {
    problems.push('a 204 or 205 carries a body');
  }
  // Bodies the service accepted must be ones the document accepts (refused ones are refused on
  // purpose). The interface's enumerated `spaces` of a new site is not in the document.
  const interfaceOnly = (answer.sent as { spaces?: unknown } | undefined)?.spaces === 'new';
  if (answer.sent !== undefined && answer.status < 400 && !interfaceOnly) {
    problems.push(
      ...checkRequest(answer.method, route, answer.sent).errors.map((error) => `request ${error}`),
    );
  }
  return problems.map((problem) => `${where}: ${problem}`);
}

export async function startSiteTestWorld(): Promise<SiteTestWorld> {
  const test = await startTestEmulator();
  const proxy = await startRecordingProxy(test.origin);
  const viaProxy: TestEmulator = { ...test, baseUrl: proxy.baseUrl };
  const admin = testApiClient(viaProxy, test.tokens.admin).client;
  return {
    test,
    orgId: test.orgId,
    proxy,
    admin,
    reviewer: testApiClient(viaProxy, test.tokens.reviewer).client,
    reader: testApiClient(viaProxy, test.tokens.reader).client,
    newSpace: async (title) => (await admin.spaces.create(test.orgId, { title })).id,
    expectDocumented: () => {
      const answers = proxy.take();
      expect(answers.flatMap(documentProblems)).toEqual([]);
      return answers.length;
    },
  };
}
