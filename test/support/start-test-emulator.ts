// Starts the local documentation service in the test process on a free loopback port, with one
// member per role that tests need, and closes it after the file.
import { pino } from 'pino';
import { createEmulator, type Emulator } from '../../src/emulator/create-emulator.js';
import type { EmulatorContext } from '../../src/emulator/emulator-context.js';
import {
  nextSeq,
  type StoredChangeRequest,
  type StoredPage,
  type StoredRevision,
} from '../../src/emulator/emulator-state.js';
import type { FaultConfig } from '../../src/emulator/faults.js';
import { closeAfter } from './close-after.js';

export interface StartTestEmulatorOptions {
  limits?: Partial<EmulatorContext['limits']>;
  faults?: FaultConfig;
}

export interface TestEmulator {
  /** Such as http://127.0.0.1:41234. */
  origin: string;
  /** `origin` + `/v1`. */
  baseUrl: string;
  orgId: string;
  emulator: Emulator;
  tokens: { admin: string; reviewer: string; commenter: string; reader: string };
}

export const TEST_MEMBERS = [
  { name: 'Admin', token: 'admin-token', role: 'admin' },
  { name: 'Rita Reviewer', token: 'reviewer-token', role: 'review' },
  { name: 'Carl Commenter', token: 'commenter-token', role: 'comment' },
  { name: 'Rea Reader', token: 'reader-token', role: 'read' },
] as const;

export async function startTestEmulator(options: StartTestEmulatorOptions = {}): Promise<TestEmulator> {
  const emulator = await createEmulator({
    members: TEST_MEMBERS,
    log: pino({ level: 'silent' }),
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    ...(options.faults === undefined ? {} : { faults: options.faults }),
  });
  closeAfter(() => emulator.close());
  const origin = await emulator.listen('127.0.0.1', 0);
  return {
    origin,
    baseUrl: `${origin}/v1`,
    orgId: emulator.orgId,
    emulator,
    tokens: {
      admin: 'admin-token',
      reviewer: 'reviewer-token',
      commenter: 'commenter-token',
      reader: 'reader-token',
    },
  };
}

export interface ApiAnswer<T> {
  status: number;
  headers: Headers;
  /** The parsed JSON body; undefined when the answer has none. */
  body: T;
}

/** One call to the local service with a bearer token (none when `token` is undefined). */
export async function callApi<T = unknown>(
  url: string,
  token: string | undefined,
  method = 'GET',
  body?: unknown,
): Promise<ApiAnswer<T>> {
  const headers: Record<string, string> = { accept: '*/*' };
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(url, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: (text === '' ? undefined : JSON.parse(text)) as T,
  };
}

// Content and change requests are written straight into the state where a test needs them before
// the routes that make them exist; the records are the ones those routes keep.

/** A page for `addRevision`; children nest under `pages`. */
export function testPage(id: string, slug: string, pages: StoredPage[] = []): StoredPage {
  const at = new Date().toISOString();
  return {
    id,
    title: `Page ${slug}`,
    slug,
    sourcePath: `${slug}.md`,
    markdown: `# ${slug}`,
    createdAt: at,
    updatedAt: at,
    pages,
  };
}

/** A new revision with these pages, made the active one of the space, or of the change request. */
export function addRevision(
  emulator: Emulator,
  target: { spaceId: string; changeRequestId?: string },
  pages: StoredPage[],
): StoredRevision {
  const { state } = emulator;
  const owner =
    target.changeRequestId === undefined
      ? state.spaces[target.spaceId]
      : state.changeRequests[target.changeRequestId];
  if (owner === undefined) throw new Error('addRevision: unknown space or change request');
  const seq = nextSeq(state);
  const revision: StoredRevision = {
    id: `rev_test${seq}`,
    seq,
    parents: [owner.revision],
    createdAt: new Date().toISOString(),
    pages,
    files: [],
  };
  state.revisions[revision.id] = revision;
  owner.revision = revision.id;
  return revision;
}

/** An open change request of the space, started from its current revision. */
export function addChangeRequest(
  emulator: Emulator,
  spaceId: string,
  createdBy: string,
): StoredChangeRequest {
  const { state } = emulator;
  const space = state.spaces[spaceId];
  if (space === undefined) throw new Error('addChangeRequest: unknown space');
  space.changeRequestCount += 1;
  const seq = nextSeq(state);
  const at = new Date().toISOString();
  const changeRequest: StoredChangeRequest = {
    id: `cr_test${seq}`,
    seq,
    spaceId,
    number: space.changeRequestCount,
    status: 'open',
    subject: `Change ${space.changeRequestCount}`,
    createdBy,
    createdAt: at,
    updatedAt: at,
    revision: space.revision,
    revisionInitial: space.revision,
    contributors: [createdBy],
  };
  state.changeRequests[changeRequest.id] = changeRequest;
  return changeRequest;
}

/** A new space of the organization, made by the admin through the API. */
export async function createTestSpace(test: TestEmulator, title = 'Docs'): Promise<string> {
  const answer = await callApi<{ id: string }>(
    `${test.baseUrl}/orgs/${test.orgId}/spaces`,
    test.tokens.admin,
    'POST',
    {
      title,
    },
  );
  if (answer.status !== 201) throw new Error(`createTestSpace: status ${answer.status}`);
  return answer.body.id;
}
