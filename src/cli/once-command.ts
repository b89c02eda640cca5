// `docsync once`: the import of one mapping run inline, without Redis, for CI pipelines (with
// --dry-run, the pages it would add, change and remove, and nothing written). It serves
// the bundle to the service from its own HTTP server while the import runs (or, with artifacts.s3,
// hands over a presigned address of the bucket and serves nothing), waits for the link
// check, places each broken link on its line in the files it imported, prints the change request's
// address, revision, the docs folder's warnings and the broken links in the format asked (text,
// JSON, JUnit, SARIF, GitHub annotations, markdown; src/report/), appends the markdown summary to
// $GITHUB_STEP_SUMMARY when that is set, and exits 0 on success (warnings included), 1 on failure,
// 3 when broken links were found and --fail-on-broken-links was given. One branch of a branches
// mapping is named `<mapping>@<branch>`: its space is the one docsync marked for it in the
// mapping's collection (src/versions/find-version-space.ts). The report is what a CI log is read
// for: stderr adds a refusal's one plain line (src/cli/refusal-line.ts) and the log lines the report
// does not hold (warn and up); the log lines of its warnings and refusal come from --log-level info.
import { appendFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import { createDocsApiClient } from '../api/create-docs-api-client.js';
import type { DocsApiClient } from '../api/docs-api-client.js';
import type { BundleStore } from '../artifacts/bundle-store.js';
import { createBundleStore } from '../artifacts/create-bundle-store.js';
import type { BranchMappingConfig } from '../config/branch-mapping-schema.js';
import type { Config } from '../config/config-schema.js';
import type { MappingConfig } from '../config/mapping-schema.js';
import { DocsyncError } from '../errors/docsync-error.js';
import type { ErrorCode } from '../errors/error-codes.js';
import { GitMirror } from '../git/git-mirror.js';
import { gitEnvironment, runGit } from '../git/git-process.js';
import { MirrorRegistry } from '../git/mirror-registry.js';
import { repoCredentials } from '../git/repo-credentials.js';
import { registerArtifactRoute } from '../http/routes/artifact-route.js';
import { type ImportRequest, runImport } from '../import/run-import.js';
import {
  commitFiles,
  type GitFiles,
  locateBrokenLinks,
  workingCopyFiles,
} from '../links/locate-broken-links.js';
import { readChangeRequestLinks } from '../links/read-link-check.js';
import { createLogger, type Logger, type LogLevel } from '../log/create-logger.js';
import { redactUrlCredentials } from '../log/redact-url-credentials.js';
import { MAX_LISTED_PAGES } from '../preview/content-preview.js';
import type { OnceResult, OnceSuccess } from '../report/once-result.js';
import { renderMarkdownSummary } from '../report/render-markdown-summary.js';
import { isReportFormat, REPORT_FORMATS, type ReportFormat, renderReport } from '../report/report-format.js';
import { failureHint } from '../state/failure-hint.js';
import { memoryStores } from '../state/memory-stores.js';
import { branchMappingOf, derivedMappings } from '../versions/derived-mappings.js';
import { findVersionSpace } from '../versions/find-version-space.js';
import type { CliIo } from './cli-io.js';
import { EXIT } from './exit-codes.js';
import { readCliConfig } from './read-cli-config.js';
import { refusalLine } from './refusal-line.js';

export const EXIT_BROKEN_LINKS = 3;

export interface OnceFlags {
  config?: string;
  mapping?: string;
  ref?: string;
  worktree?: boolean;
  json?: boolean;
  /** One of REPORT_FORMATS; `--json` is `--format json`. */
  format?: string;
  failOnBrokenLinks?: boolean;
  dryRun?: boolean;
  logLevel?: LogLevel;
  /** The address at which the service reaches this run's HTTP server (a tunnel, a runner's address). */
  publicUrl?: string;
}

export async function onceCommand(flags: OnceFlags, io: CliIo): Promise<number> {
  const file = flags.config ?? io.env.DOCSYNC_CONFIG;
  if (file === undefined) return usage(io, 'name the configuration with --config <file> (or DOCSYNC_CONFIG)');
  if (flags.ref !== undefined && flags.worktree === true)
    return usage(io, 'give either --ref or --worktree, not both');
  const format = flags.format ?? (flags.json === true ? 'json' : 'text');
  if (!isReportFormat(format))
    return usage(io, `--format must be one of ${REPORT_FORMATS.join(', ')}, not ${format}`);
  if (flags.json === true && format !== 'json') return usage(io, `give either --json or --format ${format}`);
  const config = await readCliConfig(file, io);
  if (config === undefined) return EXIT.invalid;
  const chosen = chooseMapping(config, flags, file);
  if ('problem' in chosen) return usage(io, chosen.problem);

  // Logs go to stderr: stdout is the result, for people or (--json) for the pipeline.
  const log = createLogger({
    level: flags.logLevel ?? 'warn',
    destination: pino.destination({ dest: 2, sync: true }),
  });
  const api = createDocsApiClient(chosen.service, { logger: log.child({ component: 'api' }) });
  const mapping = await mappingOf(api, chosen, flags, io);
  if (mapping === undefined) return EXIT.failure;
  const server = Fastify({
    loggerInstance: log.child({ component: 'http' }) as FastifyBaseLogger,
    forceCloseConnections: true,
  });
  let origin = '';
  const { store: artifacts, served } = createBundleStore({
    config,
    dir: resolve(io.cwd, config.dataDir, 'artifacts'),
    // Its own address, not http.publicUrl: in a pipeline that reuses the daemon's configuration,
    // that names the daemon, which does not have this bundle.
    publicUrl: () => flags.publicUrl ?? origin,
    log,
  });
  // With artifacts.s3 the service fetches the bundle from the bucket: no server to listen at all.
  if (served !== undefined) registerArtifactRoute(server, { store: served, log });
  try {
    if (served !== undefined)
      origin = await server.listen({ host: config.http.listen.host, port: config.http.listen.port });
    return await importAndReport({ flags, config, mapping, io, log, api, artifacts, format });
  } catch (error) {
    return await reportFailure(error, { mapping, format, io, log });
  } finally {
    await server.close();
    await artifacts.close();
    await api.close();
  }
}

/**
 * The mapping the flags choose among those importing from git (or one branch of a branches mapping,
 * `<mapping>@<branch>`, whose space is found in the service), or the usage problem.
 */
function chooseMapping(
  config: Config,
  flags: OnceFlags,
  file: string,
):
  | { problem: string }
  | {
      candidate: MappingConfig | undefined;
      branchOf: ReturnType<typeof branchMappingNamed>;
      service: NonNullable<Config['service']>;
    } {
  const candidates = config.mappings.filter(
    (mapping) =>
      mapping.direction !== 'space-to-git' && (flags.mapping === undefined || mapping.name === flags.mapping),
  );
  // One branch of a branches mapping, `<mapping>@<branch>`: its space is found in the service below.
  const branchOf =
    candidates.length === 0 && flags.mapping !== undefined
      ? branchMappingNamed(config, flags.mapping)
      : undefined;
  if (config.service === undefined)
    return { problem: `${file} names no service: set service.baseUrl and service.token` };
  if ((candidates[0] === undefined && branchOf === undefined) || candidates.length > 1) {
    return {
      problem:
        flags.mapping === undefined
          ? 'the configuration has several mappings (or none): choose one with --mapping <name>'
          : `no mapping named ${flags.mapping} imports from git`,
    };
  }
  return { candidate: candidates[0], branchOf, service: config.service };
}

/** The chosen mapping; for a branch of a branches mapping, its space found in the service first. */
async function mappingOf(
  api: DocsApiClient,
  chosen: { candidate: MappingConfig | undefined; branchOf: ReturnType<typeof branchMappingNamed> },
  flags: OnceFlags,
  io: CliIo,
): Promise<MappingConfig | undefined> {
  const { branchOf } = chosen;
  if (branchOf === undefined) return chosen.candidate as MappingConfig;
  const found = await findVersionSpace(api, branchOf.mapping, branchOf.branch).catch((error: unknown) => ({
    problem: redactUrlCredentials((error as Error).message),
  }));
  if ('problem' in found) {
    await api.close();
    io.stderr.write(`docsync once: ${flags.mapping}: ${found.problem}\n`);
    return undefined;
  }
  const state = { branches: { [branchOf.branch]: { space: found.space, created: true } } };
  return derivedMappings(branchOf.mapping, state)[0] as MappingConfig;
}

/** The import run inline, its change request's links checked, and the report printed: the exit code. */
async function importAndReport(run: {
  flags: OnceFlags;
  config: Config;
  mapping: MappingConfig;
  io: CliIo;
  log: Logger;
  api: DocsApiClient;
  artifacts: BundleStore;
  format: ReportFormat;
}): Promise<number> {
  const { flags, config, mapping, io, log, api } = run;
  const signal = AbortSignal.timeout(30 * 60 * 1000);
  const { request, mirrorFor, files } = await importRequest(flags, config, mapping, io, log, signal);
  const report = await runImport(
    {
      api,
      // No Redis in a pipeline: the change request is found again through its subject marker.
      state: memoryStores().mappings,
      mirrorFor,
      artifacts: run.artifacts,
      log,
      now: () => new Date(),
      signal,
      dryRun: config.dryRun || flags.dryRun === true,
      previewPages: MAX_LISTED_PAGES,
      // The report prints them; their log lines are for --log-level info.
      warningLogLevel: 'info',
    },
    request,
  );
  let links: OnceSuccess['links'];
  if (report.changeRequest !== undefined) {
    const target = { spaceId: mapping.space, changeRequestId: report.changeRequest.id };
    const { pages, broken } = await readChangeRequestLinks(api, target, signal);
    // The files this run imported: the change request holds them, so their lines are the links'.
    links = { pages, broken: await locateBrokenLinks(broken, files) };
  }
  const result: OnceSuccess = { mapping: mapping.name, folder: mapping.git.dir, report, links };
  io.stdout.write(renderReport(run.format, result));
  await writeStepSummary(io, result, log);
  const broken = links?.broken.length ?? 0;
  return broken > 0 && flags.failOnBrokenLinks === true ? EXIT_BROKEN_LINKS : EXIT.ok;
}

/** A failed import: one plain line on stderr, the report in a machine format, the step summary. */
async function reportFailure(
  error: unknown,
  run: { mapping: MappingConfig; format: ReportFormat; io: CliIo; log: Logger },
): Promise<number> {
  const { mapping, format, io, log } = run;
  const code: ErrorCode = error instanceof DocsyncError ? error.code : 'FAILED';
  const message = redactUrlCredentials(error instanceof Error ? error.message : String(error));
  const hint = redactUrlCredentials(failureHint(error, { mapping }));
  // The plain line below says it for people; the log line is for --log-level info, and its stack
  // (a bug's trail, noise for a refused folder or token) for debug.
  log.info(
    { code, detail: message, hint, ...(log.isLevelEnabled('debug') ? { err: error } : {}) },
    'import failed',
  );
  // Text goes to stderr only, as every other command's failure; a machine format is still a report.
  const failed: OnceResult = { mapping: mapping.name, failure: { code, message } };
  if (format !== 'text') io.stdout.write(renderReport(format, failed));
  await writeStepSummary(io, failed, log);
  io.stderr.write(refusalLine(mapping.name, { code, message, hint }));
  return EXIT.failure;
}

/** The branches mapping and branch a `<mapping>@<branch>` name gives, when the mapping is one. */
function branchMappingNamed(
  config: Config,
  name: string,
): { mapping: BranchMappingConfig; branch: string } | undefined {
  const base = branchMappingOf(name);
  const mapping = config.branchMappings.find((candidate) => candidate.name === base);
  return mapping === undefined || mapping.direction === 'space-to-git'
    ? undefined
    : { mapping, branch: name.slice(name.indexOf('@') + 1) };
}

async function importRequest(
  flags: OnceFlags,
  config: Config,
  mapping: MappingConfig,
  io: CliIo,
  log: Logger,
  signal: AbortSignal,
): Promise<{
  request: ImportRequest;
  mirrorFor: (repo: string) => GitMirror;
  /** Where the imported files are read again, to place the broken links on their lines. */
  files: GitFiles;
}> {
  if (flags.worktree === true) {
    const registry = mirrorRegistry(config, io, log);
    return {
      request: { mapping, source: 'worktree', path: io.cwd } satisfies ImportRequest,
      mirrorFor: registry.mirrorFor,
      files: workingCopyFiles(io.cwd, mapping.git.dir),
    };
  }
  if (flags.ref !== undefined) {
    // A revision of the repository this pipeline checked out, read from its own objects: a pull
    // request's commit need not be on any branch of the remote.
    const options = { env: gitEnvironment({ ...io.env }), timeoutMs: 60_000, signal };
    const gitDir = (await runGit(['-C', io.cwd, 'rev-parse', '--absolute-git-dir'], options)).stdout
      .toString('utf8')
      .trim();
    const sha = (
      await runGit(['--git-dir', gitDir, 'rev-parse', '--verify', `${flags.ref}^{commit}`], options)
    ).stdout
      .toString('utf8')
      .trim();
    const local = new GitMirror({ repo: io.cwd, dir: gitDir, log, env: { ...io.env } });
    const commit = await local.commit(sha, signal);
    return {
      request: { mapping, source: 'git', sha, commit } satisfies ImportRequest,
      mirrorFor: () => local,
      files: commitFiles(local, sha, mapping.git.dir, signal),
    };
  }
  const registry = mirrorRegistry(config, io, log);
  const mirror = registry.mirrorFor(mapping.git.repo);
  await mirror.fetch(signal);
  const sha = await mirror.resolve(mapping.git.branch, signal);
  if (sha === undefined)
    throw new DocsyncError(
      'BRANCH_NOT_FOUND',
      `branch ${mapping.git.branch} does not exist in ${mapping.git.repo}`,
    );
  const commit = await mirror.commit(sha, signal);
  return {
    request: { mapping, source: 'git', sha, commit } satisfies ImportRequest,
    mirrorFor: registry.mirrorFor,
    files: commitFiles(mirror, sha, mapping.git.dir, signal),
  };
}

/** The markdown summary appended to the CI job's page, when the runner names one (GitHub Actions does). */
async function writeStepSummary(io: CliIo, result: OnceResult, log: Logger): Promise<void> {
  const summary = io.env.GITHUB_STEP_SUMMARY;
  if (summary === undefined || summary === '') return;
  try {
    await appendFile(resolve(io.cwd, summary), renderMarkdownSummary(result));
  } catch (error) {
    // The report is already out; a summary that cannot be written does not fail the run.
    log.warn({ err: error, file: summary }, 'step summary not written');
  }
}

function usage(io: CliIo, message: string): number {
  io.stderr.write(`docsync once: ${message}\n`);
  return EXIT.invalid;
}

/** The mirrors under the data folder, each with its repository's credentials (`git.auth`). */
function mirrorRegistry(config: Config, io: CliIo, log: Logger): MirrorRegistry {
  const env = { ...io.env };
  return new MirrorRegistry({
    dataDir: resolve(io.cwd, config.dataDir),
    log,
    env,
    credentials: repoCredentials(config, { log, env, cwd: io.cwd }),
  });
}
