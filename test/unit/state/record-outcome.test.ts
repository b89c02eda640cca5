// The one rule of how a unit of work's outcome is kept for /status, on the memory stores: a
// mapping's failure counted per job in a row with its hint and next try, the git host's hint for a
// commit status; a spec's failure as its last refresh (invalid with its problems, or failed) and
// one more in a row; a success ends the row; a unit that left the configuration gets nothing.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/api/api-error.js';
import { GitHostError } from '../../../src/commit-status/git-host-error.js';
import { parseConfig } from '../../../src/config/load-config.js';
import { OpenApiInvalidError } from '../../../src/openapi/openapi-invalid-error.js';
import { OpenApiSourceError } from '../../../src/openapi/openapi-source-error.js';
import { memoryStores } from '../../../src/state/memory-stores.js';
import { type OutcomeRecordContext, recordOutcome } from '../../../src/state/record-outcome.js';

const FIRST = new Date('2026-03-01T12:00:00Z');
const LATER = new Date('2026-03-01T12:05:00Z');
const NEXT_TRY = '2026-03-01T12:10:00.000Z';

const config = parseConfig(
  JSON.stringify({
    service: { baseUrl: 'https://docs.example.com/v1', token: 't' },
    mappings: [
      {
        name: 'docs',
        space: 'spc_docs',
        git: { repo: './docs', branch: 'main' },
        report: { github: { repo: 'acme/docs', tokenEnv: 'GH_TOKEN' } },
      },
    ],
    openapi: [{ org: 'acme', slug: 'public-api', source: { file: './openapi.yaml' }, every: '1h' }],
  }),
  'docsync.yaml',
  { GH_TOKEN: 'ghp_test' },
);

/** The recorder's context, on memory stores, at a clock the test moves. */
function context() {
  let now = FIRST;
  const ctx: OutcomeRecordContext = { config, stores: memoryStores(() => now), now: () => now };
  return { ctx, stores: ctx.stores, at: (date: Date) => (now = date) };
}

const refused = new ApiError({
  code: 'API_HTTP_ERROR',
  status: 401,
  method: 'GET',
  path: '/spaces/spc_docs/change-requests',
  message: 'GET /spaces/spc_docs/change-requests: 401',
});

const spec = { openapi: { org: 'acme', slug: 'public-api', trigger: 'git' } };

describe('recordOutcome of a mapping', () => {
  it('counts failures per job in a row, each with its code, hint and next try', async () => {
    const { ctx, stores, at } = context();
    await recordOutcome(ctx, { mapping: 'docs' }, { failed: refused }, { name: 'poll-change-requests' });
    at(LATER);
    await recordOutcome(
      ctx,
      { mapping: 'docs' },
      { failed: refused },
      { name: 'poll-change-requests', nextTry: NEXT_TRY },
    );
    const { failures, lastError } = await stores.mappings.get('docs');
    expect(failures).toEqual({
      'poll-change-requests': {
        count: 2,
        since: FIRST.toISOString(),
        last: {
          at: LATER.toISOString(),
          code: 'API_HTTP_ERROR',
          message: 'GET /spaces/spc_docs/change-requests: 401',
          hint: expect.stringContaining('check service.token'),
          nextTry: NEXT_TRY,
        },
      },
    });
    expect(lastError).toEqual(failures?.['poll-change-requests']?.last);
  });

  it("gives a commit status's failure the git host's hint, naming the token's variable", async () => {
    const { ctx, stores } = context();
    const error = new GitHostError('GIT_HOST_REFUSED', 'github:acme/docs: commit status refused with 401', {
      host: 'github',
      httpStatus: 401,
    });
    await recordOutcome(ctx, { mapping: 'docs' }, { failed: error }, { name: 'report-commit-status' });
    const { failures } = await stores.mappings.get('docs');
    expect(failures?.['report-commit-status']?.last).toMatchObject({
      code: 'GIT_HOST_REFUSED',
      hint: expect.stringContaining('GH_TOKEN (report.github.tokenEnv of mapping docs)'),
    });
  });

  it("ends the job's run of failures with a success, and only that job's", async () => {
    const { ctx, stores } = context();
    await recordOutcome(ctx, { mapping: 'docs' }, { failed: refused }, { name: 'poll-change-requests' });
    await recordOutcome(ctx, { mapping: 'docs' }, { failed: refused }, { name: 'import-content' });
    await recordOutcome(ctx, { mapping: 'docs' }, { succeeded: true }, { name: 'poll-change-requests' });
    expect(Object.keys((await stores.mappings.get('docs')).failures ?? {})).toEqual(['import-content']);
    await recordOutcome(ctx, { mapping: 'docs' }, { succeeded: true }, { name: 'import-content' });
    expect(await stores.mappings.get('docs')).toEqual({});
  });

  it('keeps nothing for a mapping that left the configuration', async () => {
    const { ctx, stores } = context();
    await recordOutcome(ctx, { mapping: 'gone' }, { failed: refused }, { name: 'poll-git' });
    expect(await stores.mappings.get('gone')).toEqual({});
  });
});

describe('recordOutcome of an OpenAPI spec', () => {
  it('keeps an invalid document as the last refresh with its problems, one more in a row', async () => {
    const { ctx, stores, at } = context();
    const problems = [{ pointer: '/info', message: 'must have required property title' }];
    const invalid = new OpenApiInvalidError('openapi.yaml', problems);
    await recordOutcome(ctx, spec, { failed: invalid }, { name: 'refresh-openapi' });
    at(LATER);
    await recordOutcome(ctx, spec, { failed: invalid }, { name: 'refresh-openapi' });
    const state = await stores.openapi.get('acme', 'public-api');
    expect(state.failures).toEqual({ count: 2, since: FIRST.toISOString() });
    expect(state.lastRefresh).toEqual({
      at: LATER.toISOString(),
      result: 'invalid',
      trigger: 'git',
      error: { code: 'OPENAPI_INVALID', message: invalid.message, hint: expect.any(String) },
      problems,
    });
  });

  it("keeps any other failure as failed, with the hint naming the spec's setting", async () => {
    const { ctx, stores } = context();
    const tooLarge = new OpenApiSourceError('SOURCE_TOO_LARGE', 'openapi.yaml is larger than 1 MB', {
      setting: 'maxBytes',
    });
    await recordOutcome(ctx, spec, { failed: tooLarge }, { name: 'refresh-openapi' });
    const state = await stores.openapi.get('acme', 'public-api');
    expect(state.failures).toEqual({ count: 1, since: FIRST.toISOString() });
    expect(state.lastRefresh).toEqual({
      at: FIRST.toISOString(),
      result: 'failed',
      trigger: 'git',
      error: {
        code: 'SOURCE_TOO_LARGE',
        message: 'openapi.yaml is larger than 1 MB',
        hint: expect.stringContaining('raise maxBytes of spec acme/public-api'),
      },
    });
  });

  it('ends the run of failures with a success, and keeps the last refresh for /status', async () => {
    const { ctx, stores } = context();
    const unreachable = new OpenApiSourceError('SOURCE_UNREACHABLE', 'no answer');
    await recordOutcome(ctx, spec, { failed: unreachable }, { name: 'refresh-openapi' });
    await recordOutcome(ctx, spec, { succeeded: true }, { name: 'refresh-openapi' });
    const state = await stores.openapi.get('acme', 'public-api');
    expect(state.failures).toBeUndefined();
    expect(state.lastRefresh?.result).toBe('failed');
  });

  it('keeps nothing for a spec that left the configuration', async () => {
    const { ctx, stores } = context();
    const gone = { openapi: { org: 'acme', slug: 'removed', trigger: 'now' } };
    await recordOutcome(ctx, gone, { failed: new Error('x') }, { name: 'refresh-openapi' });
    expect(await stores.openapi.get('acme', 'removed')).toEqual({});
  });
});
