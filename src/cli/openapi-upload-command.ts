// `docsync openapi upload --config f --slug s [--dry-run]`: one refresh of one spec of the
// configuration, now, without Redis, for a pipeline that publishes its spec on release. The same
// refresh as the daemon's (read, validate, upload, follow the processing), with a state kept in
// memory: the service itself tells whether the content is a new version. Exit 0 when uploaded (or
// kept as the service's latest version, or, with --dry-run, valid); 1 when the document is not
// valid or the upload fails; 2 on bad usage or an invalid configuration.
import { resolve } from 'node:path';
import { pino } from 'pino';
import { createDocsApiClient } from '../api/create-docs-api-client.js';
import type { OpenApiConfig } from '../config/openapi-schema.js';
import { DocsyncError } from '../errors/docsync-error.js';
import type { ErrorCode } from '../errors/error-codes.js';
import { MirrorRegistry } from '../git/mirror-registry.js';
import { lazyRepoCredentials } from '../git/repo-credentials.js';
import { createLogger, type LogLevel } from '../log/create-logger.js';
import { redactUrlCredentials } from '../log/redact-url-credentials.js';
import { OpenApiInvalidError } from '../openapi/openapi-invalid-error.js';
import { openApiSourceReader } from '../openapi/openapi-source-reader.js';
import { type RefreshResult, refreshOpenApiSpec } from '../openapi/refresh-openapi-spec.js';
import { MemoryOpenApiStateStore } from '../state/memory-openapi-state-store.js';
import type { CliIo } from './cli-io.js';
import { EXIT } from './exit-codes.js';
import { flagHint, specWithFlags } from './openapi-read-flags.js';
import { problemLine } from './openapi-validate-command.js';
import { readCliConfig } from './read-cli-config.js';

export interface OpenApiUploadFlags {
  config?: string;
  slug: string;
  /** The spec's organization, when specs of several organizations share the slug. */
  org?: string;
  dryRun?: boolean;
  json?: boolean;
  /** In place of the spec's `maxRefFiles`. */
  maxRefFiles?: string;
  /** In place of the spec's `source.root`. */
  root?: string;
  logLevel?: LogLevel;
}

export async function openApiUploadCommand(flags: OpenApiUploadFlags, io: CliIo): Promise<number> {
  const file = flags.config ?? io.env.DOCSYNC_CONFIG;
  if (file === undefined) return usage(io, 'name the configuration with --config <file> (or DOCSYNC_CONFIG)');
  const config = await readCliConfig(file, io);
  if (config === undefined) return EXIT.invalid;
  const candidates = config.openapi.filter(
    (spec) => spec.slug === flags.slug && (flags.org === undefined || spec.org === flags.org),
  );
  const configured = candidates[0];
  if (configured === undefined)
    return usage(
      io,
      `${file} has no OpenAPI spec with slug ${flags.slug}${flags.org === undefined ? '' : ` in organization ${flags.org}`}: its specs are ${listed(config.openapi)}`,
    );
  if (candidates.length > 1)
    return usage(io, `specs of several organizations have slug ${flags.slug}: choose one with --org <org>`);
  const spec = specWithFlags(configured, flags, io.cwd);
  if (typeof spec === 'string') return usage(io, spec);
  const dryRun = config.dryRun || flags.dryRun === true;
  if (config.service === undefined && !dryRun)
    return usage(io, `${file} names no service: set service.baseUrl and service.token (or use --dry-run)`);

  // Logs go to stderr: stdout is the result, for people or (--json) for the pipeline.
  const log = createLogger({
    level: flags.logLevel ?? 'warn',
    destination: pino.destination({ dest: 2, sync: true }),
  });
  const api =
    config.service === undefined
      ? undefined
      : createDocsApiClient(config.service, { logger: log.child({ component: 'api' }) });
  const env = { ...io.env };
  const mirrors = new MirrorRegistry({
    dataDir: resolve(io.cwd, config.dataDir),
    log,
    env,
    // The spec's repository may be private (`git.auth`): its mirror fetches with its credentials,
    // built when it is first read (a key file that cannot be used fails this spec, as any source).
    credentials: lazyRepoCredentials(config, { log, env, cwd: io.cwd }),
  });
  const name = `${spec.org}/${spec.slug}`;
  /** How problems name the document: its source, once there is a reader for it. */
  let label = spec.slug;
  try {
    const reader = openApiSourceReader(spec, {
      mappings: config.mappings,
      mirrorFor: mirrors.mirrorFor,
      cwd: io.cwd,
    });
    label = reader.label;
    const outcome = await refreshOpenApiSpec({
      spec,
      reader,
      api,
      store: new MemoryOpenApiStateStore(),
      log,
      now: () => new Date(),
      // The source's timeout and the service's processing timeout end the refresh before this.
      signal: AbortSignal.timeout(2 * 60 * 60 * 1000),
      dryRun,
      trigger: 'now',
    });
    print(io, flags, name, reader.label, outcome);
    return EXIT.ok;
  } catch (error) {
    if (!(error instanceof DocsyncError)) log.error({ err: error }, 'openapi upload failed');
    const code: ErrorCode = error instanceof DocsyncError ? error.code : 'FAILED';
    const message = redactUrlCredentials((error as Error).message);
    const problems = error instanceof OpenApiInvalidError ? error.problems : [];
    if (flags.json === true)
      io.stdout.write(
        `${JSON.stringify({ spec: name, result: 'failed', error: { code, message }, problems })}\n`,
      );
    else if (error instanceof OpenApiInvalidError) {
      const lines = [
        `docsync openapi upload: ${name}: not a valid OpenAPI document, ${error.total} problem(s):`,
        ...problems.map((problem) => `  ${problemLine({ ...problem, file: problem.file ?? label })}`),
      ];
      io.stderr.write(`${lines.join('\n')}\n`);
    } else {
      const hint = error instanceof DocsyncError ? flagHint(error, ['maxRefFiles', 'root']) : '';
      io.stderr.write(`docsync openapi upload: ${name}: ${message}${hint} [${code}]\n`);
    }
    return EXIT.failure;
  } finally {
    await api?.close();
  }
}

function print(
  io: CliIo,
  flags: OpenApiUploadFlags,
  name: string,
  source: string,
  outcome: RefreshResult,
): void {
  const operations =
    outcome.result === 'uploaded' || outcome.result === 'would-upload' ? outcome.operations : undefined;
  if (flags.json === true) {
    const version = 'version' in outcome ? outcome.version : undefined;
    io.stdout.write(
      `${JSON.stringify({ spec: name, source, result: outcome.result, ...(version === undefined ? {} : { version }), ...(operations === undefined ? {} : { operations }) })}\n`,
    );
    return;
  }
  switch (outcome.result) {
    case 'uploaded':
      io.stdout.write(
        `${name}: uploaded from ${source} as version ${outcome.version ?? '(none given)'}, ${operations} operation(s)\n`,
      );
      return;
    case 'no-new-version':
      io.stdout.write(
        `${name}: uploaded from ${source}; the service kept its latest version ${outcome.version ?? '(none given)'}, which has this content\n`,
      );
      return;
    case 'would-upload':
      io.stdout.write(
        `${name}: dry run, ${source} is valid and would be uploaded: ${operations} operation(s)\n`,
      );
      return;
    case 'unchanged':
      // A state in memory starts empty: "unchanged" here is the service's latest version found equal.
      io.stdout.write(
        'version' in outcome
          ? `${name}: not uploaded: the service's latest version ${outcome.version} already holds ${source}\n`
          : `${name}: unchanged\n`,
      );
      return;
  }
}

function listed(specs: readonly OpenApiConfig[]): string {
  return specs.length === 0 ? '(none)' : specs.map((spec) => `${spec.org}/${spec.slug}`).join(', ');
}

function usage(io: CliIo, message: string): number {
  io.stderr.write(`docsync openapi upload: ${message}\n`);
  return EXIT.invalid;
}
