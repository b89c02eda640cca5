// Starts the local documentation service in the test process on a free loopback port, with one
// member per role that tests need, and closes it after the file.
import { pino } from 'pino';
import { createEmulator, type Emulator } from '../../src/emulator/create-emulator.js';
import type { EmulatorContext } from '../../src/emulator/emulator-context.js';
import type { FaultConfig } from '../../src/emulator/faults.js';
import { closeAfter } from './close-after.js';

// Content and change requests written straight into the state (service-content.ts), importable from
// here too, where tests start the service.
export { addChangeRequest, addRevision, testPage } from './service-content.js';

export interface StartTestEmulatorOptions {
  limits?: Partial<EmulatorContext['limits']>;
  faults?: FaultConfig;
  /** Runs before it listens, where hooks on its routes go (a request log, a held request). */
  prepare?: (emulator: Emulator) => void;
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
  options.prepare?.(emulator);
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
