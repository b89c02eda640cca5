// Each OpenAPI spec's source: read as a refresh reads it (a URL, a local file, or a file of a mapped
// repository at its branch) and loaded as a refresh loads it, `$ref`s bundled and the document
// validated, so that what doctor calls valid is what a refresh would upload.
import type { Config } from '../config/config-schema.js';
import type { OpenApiConfig } from '../config/openapi-schema.js';
import { DocsyncError } from '../errors/docsync-error.js';
import { GitError } from '../git/git-error.js';
import type { GitMirror } from '../git/git-mirror.js';
import { redactUrlCredentials } from '../log/redact-url-credentials.js';
import { analyseOpenApiOffThread } from '../openapi/load-openapi-off-thread.js';
import { formatProblem, OpenApiInvalidError } from '../openapi/openapi-invalid-error.js';
import { OpenApiSourceError } from '../openapi/openapi-source-error.js';
import { openApiSourceReader } from '../openapi/openapi-source-reader.js';
import type { CheckRunner } from './check-runner.js';
import type { NameSource } from './config-sources.js';
import { describeFailure, failureCode } from './describe-failure.js';
import { type Finding, failed, ok, type Problem } from './doctor-finding.js';

export interface OpenApiCheckInput {
  config: Config;
  runner: CheckRunner;
  names: NameSource;
  /** Local files are relative to it, as for docsync start. */
  cwd: string;
  /** The mirror a repository's files are read from. */
  mirrorFor: (repo: string) => GitMirror;
}

export async function checkOpenApiSource(
  input: OpenApiCheckInput,
  spec: OpenApiConfig,
  index: number,
): Promise<Finding> {
  const subject = `${spec.org}/${spec.slug}`;
  let label = sourceLabel(spec);
  const attempt = await input.runner.attempt(async (signal) => {
    const reader = openApiSourceReader(spec, {
      mappings: input.config.mappings,
      mirrorFor: input.mirrorFor,
      cwd: input.cwd,
    });
    label = reader.label;
    const read = await reader.read(undefined, signal);
    // Without validators to compare with, a source always answers with its content.
    if (read.kind !== 'read') throw new Error('the source answered "not modified" to a plain read');
    // Checked in the OpenAPI worker thread, the document left there: the check needs its version.
    return analyseOpenApiOffThread(
      read.bytes,
      reader,
      { maxBytes: spec.maxBytes, maxRefFiles: spec.maxRefFiles },
      signal,
      {},
    );
  });
  if (!attempt.ok)
    return failed('openapi', subject, openApiProblem(attempt.error, spec, index, label, input.names));
  const { version, refFiles } = attempt.value;
  const kind = version.startsWith('2') ? `Swagger ${version}` : `OpenAPI ${version}`;
  return ok(
    'openapi',
    subject,
    `${label}: a valid ${kind} document${refFiles === 0 ? '' : `, with ${refFiles} more file(s) named by $ref`}`,
  );
}

function sourceLabel(spec: OpenApiConfig): string {
  const { source } = spec;
  if (typeof source === 'string') return redactUrlCredentials(source);
  return 'file' in source ? source.file : `${source.path} (mapping ${source.mapping})`;
}

function openApiProblem(
  error: unknown,
  spec: OpenApiConfig,
  index: number,
  label: string,
  names: NameSource,
): Problem {
  const { source } = spec;
  const sourceKey =
    typeof source === 'string'
      ? names(['openapi', index, 'source'])
      : 'file' in source
        ? names(['openapi', index, 'source', 'file'])
        : names(['openapi', index, 'source', 'path']);
  if (error instanceof OpenApiInvalidError) {
    const more = error.total - error.problems.length;
    return {
      code: error.code,
      message: `${label} is not a valid OpenAPI document (${error.total} problem(s))`,
      hint: 'fix the document where each problem points (a JSON pointer into it): docsync uploads it only once it is valid',
      details: [...error.problems.map(formatProblem), ...(more > 0 ? [`and ${more} more`] : [])],
    };
  }
  if (error instanceof GitError) {
    return {
      code: error.code,
      message: `${label}: git ${error.message.replace(/^git /, '')}`,
      hint: `see the repository check of mapping ${typeof source === 'object' && 'mapping' in source ? source.mapping : ''}`.trim(),
      ...(error.stderr === '' ? {} : { details: error.stderr.split('\n') }),
    };
  }
  const message = `${label}: ${describeFailure(error)}`;
  const code = failureCode(error);
  if (!(error instanceof DocsyncError)) return { code, message, hint: `check ${sourceKey}` };
  switch (error.code) {
    case 'SOURCE_NOT_FOUND':
      return {
        code,
        message,
        hint:
          typeof source === 'object' && 'file' in source
            ? `check ${sourceKey}: a path relative to the folder docsync starts in`
            : typeof source === 'object'
              ? `check ${sourceKey}: a file on the branch of mapping ${source.mapping}`
              : `check ${sourceKey}: the address of the document`,
      };
    case 'SOURCE_UNREACHABLE':
    case 'SOURCE_TIMEOUT':
      return { code, message, hint: `check ${sourceKey} and that it answers from this machine` };
    case 'SOURCE_TOO_LARGE':
      return {
        code,
        message,
        hint:
          error instanceof OpenApiSourceError && error.setting === 'maxRefFiles'
            ? `raise ${names(['openapi', index, 'maxRefFiles'])}, or make the document name fewer files`
            : `raise ${names(['openapi', index, 'maxBytes'])}, or make the document smaller`,
      };
    case 'SOURCE_REFUSED':
      return {
        code,
        message,
        hint: `move the files the document names next to it, or widen ${names(['openapi', index, 'source', 'root'])}`,
      };
    case 'BRANCH_NOT_FOUND':
      return { code, message, hint: 'see the repository check of the mapping the source names' };
    default:
      return { code, message, hint: `check ${sourceKey}` };
  }
}
