// Every failure /status shows carries a hint: the setting most likely wrong, named by its key.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/api/api-error.js';
import { DocsyncError } from '../../../src/errors/docsync-error.js';
import { ERROR_CODES } from '../../../src/errors/error-codes.js';
import { GitError } from '../../../src/git/git-error.js';
import { OpenApiSourceError } from '../../../src/openapi/openapi-source-error.js';
import { failureHint } from '../../../src/state/failure-hint.js';
import { failureOf } from '../../../src/state/failure-of.js';

const MAPPING = { mapping: { name: 'docs', space: 'spc_1' } };

function httpError(status: number, path: string): ApiError {
  return new ApiError({
    code: 'API_HTTP_ERROR',
    message: `GET ${path}: ${status}`,
    method: 'GET',
    path,
    status,
  });
}

function unreachable(systemCode: string): ApiError {
  return new ApiError({
    code: 'API_NETWORK_ERROR',
    message: 'GET /spaces/spc_1: no answer',
    method: 'GET',
    path: '/spaces/spc_1',
    systemCode,
    retryable: true,
  });
}

describe('failureHint', () => {
  it('names service.token for a refused token (401) and a token that may not (403)', () => {
    expect(failureHint(httpError(401, '/spaces/spc_1/change-requests'), MAPPING)).toMatch(
      /refused the token: check service\.token/,
    );
    expect(failureHint(httpError(403, '/orgs/org_1/openapi/pets'))).toMatch(/check service\.token/);
  });

  it('names service.baseUrl when the service does not answer, and says DNS when its host has no address', () => {
    expect(failureHint(unreachable('ECONNREFUSED'), MAPPING)).toBe(
      'the service does not answer at service.baseUrl: check the address, and that the service runs',
    );
    expect(failureHint(unreachable('ENOTFOUND'), MAPPING)).toBe(
      'the host of service.baseUrl has no address (DNS): check service.baseUrl',
    );
  });

  it("names the mapping's space for a 404 on the space, not for a change request that is gone", () => {
    expect(failureHint(httpError(404, '/spaces/spc_1'), MAPPING)).toBe(
      'the service has no space spc_1 this token can see: check space of mapping docs',
    );
    expect(failureHint(httpError(404, '/spaces/spc_1/content/import'), MAPPING)).toMatch(
      /check space of mapping docs/,
    );
    expect(failureHint(httpError(404, '/spaces/spc_1/change-requests/cr_9'), MAPPING)).toBe(
      ERROR_CODES.API_HTTP_ERROR,
    );
    expect(failureHint(httpError(404, '/spaces/spc_1'))).toBe(ERROR_CODES.API_HTTP_ERROR);
  });

  it("names the mapping's git.repo for refused git credentials", () => {
    const error = new GitError({
      code: 'GIT_AUTH',
      args: ['fetch', 'https://host/x.git'],
      reason: 'exited with 128',
      stderr: "fatal: Authentication failed for 'https://host/x.git/'",
    });
    expect(failureHint(error, MAPPING)).toMatch(/refused the credentials: check git\.repo of mapping docs/);
  });

  it("names the spec's own key for a source past maxRefFiles, maxBytes or its root", () => {
    const spec = { spec: { org: 'acme', slug: 'pets' } };
    const files = new OpenApiSourceError('SOURCE_TOO_LARGE', 'too many files', { setting: 'maxRefFiles' });
    expect(failureHint(files, spec)).toBe(
      'its $refs name more files than the spec allows: raise maxRefFiles of spec acme/pets',
    );
    const bytes = new OpenApiSourceError('SOURCE_TOO_LARGE', 'too large', { setting: 'maxBytes' });
    expect(failureHint(bytes, spec)).toMatch(/raise maxBytes of spec acme\/pets/);
    const root = new OpenApiSourceError('SOURCE_REFUSED', 'outside', { setting: 'root' });
    expect(failureHint(root, spec)).toMatch(/widen source\.root of spec acme\/pets/);
  });

  it("falls back to what the code means, and to FAILED's meaning for an error docsync did not raise", () => {
    expect(failureHint(new DocsyncError('FOLDER_NOT_FOUND', 'no folder'))).toBe(ERROR_CODES.FOLDER_NOT_FOUND);
    expect(failureHint(new TypeError('x is undefined'))).toBe(ERROR_CODES.FAILED);
  });
});

describe('failureOf', () => {
  it('keeps every line git wrote, without credentials, and the hint next to code and message', () => {
    const error = new GitError({
      code: 'GIT_NOT_FOUND',
      args: ['fetch', '--prune', 'https://user:s3cret@host/x.git'],
      reason: 'exited with 128',
      stderr:
        "ERROR: Repository not found.\nfatal: Could not read from remote repository 'https://user:s3cret@host/x.git'.\n\nPlease make sure you have the correct access rights\nand the repository exists.\n",
    });
    const failure = failureOf(error, new Date('2026-11-21T10:00:00.000Z'), MAPPING);
    expect(failure).toEqual({
      at: '2026-11-21T10:00:00.000Z',
      code: 'GIT_NOT_FOUND',
      message:
        "git fetch exited with 128: ERROR: Repository not found. fatal: Could not read from remote repository 'https://***@host/x.git'. Please make sure you have the correct access rights and the repository exists.",
      hint: "check git.repo and git.branch of mapping docs: git's own words above say which is missing",
    });
    expect(JSON.stringify(failure)).not.toContain('s3cret');
  });
});
