// Every answer of the local service, success or error, validated against the public document of
// the service: a walk of every endpoint it serves, with realistic inputs and list filters, on a
// world with content, change requests, threads, reviews and OpenAPI versions.
import { describe, expect, it } from 'vitest';
import { TOKENS, type WalkCase } from '../../support/answer-walk-case.js';
import { SUCCESS_CASES } from '../../support/answer-walk-cases.js';
import { unexplainedErrors } from '../../support/answer-walk-conflicts.js';
import { ERROR_CASES } from '../../support/answer-walk-error-cases.js';
import { buildWalkWorld } from '../../support/answer-walk-world.js';
import { checkErrorAnswer } from '../../support/check-error-answer.js';
import { INTERFACE_ENDPOINTS } from '../../support/interface-endpoints.js';
import { checkResponse, MAX_DESCRIBED_ERRORS } from '../../support/service-document.js';

interface Tally {
  validated: number;
  invalid: string[];
  /** Answers with a body the document has no schema for (an endpoint it does not list). */
  unknown: string[];
  /** 204 and 205 answers: checked to have no body. */
  noContent: number;
}

const routeOf = (path: string) => path.replace(/\{([^}]+)\}/g, ':$1');
const nameOf = (walk: WalkCase) =>
  `${walk.method} ${walk.path}${walk.what === undefined ? '' : ` (${walk.what})`} -> ${walk.status}`;

describe('answers of the local service against the public document', async () => {
  const world = await buildWalkWorld();
  const { app } = world.test.emulator;
  const success: Tally = { validated: 0, invalid: [], unknown: [], noContent: 0 };
  const errors: Tally = { validated: 0, invalid: [], unknown: [], noContent: 0 };

  async function call(walk: WalkCase): Promise<{ status: number; body: unknown }> {
    await walk.before?.(world);
    const token = TOKENS[walk.as ?? 'admin'];
    const body = walk.rawBody ?? (walk.body === undefined ? undefined : JSON.stringify(walk.body(world)));
    const response = await fetch(`${world.test.baseUrl}${walk.url(world)}`, {
      method: walk.method,
      headers: {
        accept: '*/*',
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body }),
    });
    const text = await response.text();
    return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
  }

  for (const walk of SUCCESS_CASES) {
    it(nameOf(walk), async () => {
      const answer = await call(walk);
      expect(answer.status, JSON.stringify(answer.body)).toBe(walk.status);
      if (walk.status === 204 || walk.status === 205) {
        expect(answer.body).toBeUndefined();
        success.noContent += 1;
        return;
      }
      const result = checkResponse(walk.method, walk.path, answer.status, answer.body);
      if (!result.known) {
        success.unknown.push(nameOf(walk));
        return;
      }
      success.validated += 1;
      // describeErrors names at most MAX_DESCRIBED_ERRORS: past that, none is excused.
      const complaints =
        result.errors.length >= MAX_DESCRIBED_ERRORS
          ? result.errors
          : unexplainedErrors(walk.path, result.errors);
      if (complaints.length > 0) success.invalid.push(nameOf(walk));
      expect(complaints).toEqual([]);
    });
  }

  for (const walk of ERROR_CASES) {
    it(nameOf(walk), async () => {
      const answer = await call(walk);
      expect(answer.status, JSON.stringify(answer.body)).toBe(walk.status);
      if (walk.field !== undefined)
        expect((answer.body as { error: { message: string } }).error.message).toMatch(
          new RegExp(`\\b${walk.field}\\b`),
        );
      const result = checkErrorAnswer(walk.method, walk.path, answer.status, answer.body);
      errors.validated += 1;
      if (!result.valid) errors.invalid.push(nameOf(walk));
      expect(result.errors).toEqual([]);
    });
  }

  it('walks every endpoint of the interface that the local service serves', () => {
    const served = INTERFACE_ENDPOINTS.filter((endpoint) =>
      app.hasRoute({ method: endpoint.method, url: routeOf(endpoint.path) }),
    );
    const walked = new Set(
      SUCCESS_CASES.filter((walk) => walk.status < 300).map((walk) => `${walk.method} ${walk.path}`),
    );
    const unwalked = served
      .map((endpoint) => `${endpoint.method} ${endpoint.path}`)
      .filter((endpoint) => !walked.has(endpoint));
    const wrongStatus = served.flatMap((endpoint) =>
      SUCCESS_CASES.filter(
        (walk) =>
          walk.method === endpoint.method && walk.path === endpoint.path && walk.status !== endpoint.success,
      ).map((walk) => `${nameOf(walk)}, the interface says ${endpoint.success}`),
    );
    process.stdout.write(
      `${[
        `endpoints served: ${served.length} of ${INTERFACE_ENDPOINTS.length}`,
        `success answers validated: ${success.validated}, invalid: ${success.invalid.length}`,
        `error answers validated: ${errors.validated}, invalid: ${errors.invalid.length}`,
        `answers without content (204, 205): ${success.noContent}`,
        `answers the document has no schema for: ${success.unknown.length}`,
        ...success.unknown.map((name) => `  ${name}`),
      ].join('\n')}\n`,
    );
    expect(unwalked).toEqual([]);
    expect(wrongStatus).toEqual([]);
    expect([...success.invalid, ...errors.invalid]).toEqual([]);
    expect(success.validated + errors.validated).toBe(
      SUCCESS_CASES.length + ERROR_CASES.length - success.unknown.length - success.noContent,
    );
  });
});
