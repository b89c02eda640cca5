// An invalid refresh keeps where each duplicate key is, for /status, and reads records without it.
import { describe, expect, it } from 'vitest';
import { readOpenApiSummary } from '../../../src/state/openapi-state-store.js';

describe('the problems of an invalid refresh in the state', () => {
  it('keeps the line and column of each duplicate key, and reads problems recorded without them', () => {
    const problems = [
      { pointer: '', message: 'has the key "get" twice in one object', line: 7, column: 5 },
      {
        pointer: '',
        message: 'has the key "/pets" twice in one object',
        file: 'paths.yaml',
        line: 9,
        column: 3,
      },
      { pointer: '/info', message: "must have required property 'version'" },
    ];
    const summary = readOpenApiSummary({
      lastRefresh: { at: '2026-11-21T10:00:00.000Z', result: 'invalid', problems },
    });
    expect(summary.lastRefresh?.problems).toEqual(problems);
  });
});
