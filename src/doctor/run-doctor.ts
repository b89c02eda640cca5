// Runs the checks of `docsync doctor` for a loaded configuration and returns their findings in a
// stable order (Redis, service, spaces, repositories, watch paths, OpenAPI sources, each in the
// order of the configuration, then the bucket of artifacts.s3), whatever order they finish in.
// `docsync start` runs the `online` scope: everything but Redis, which it has just connected to
// and judged itself.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { createDocsApiClient } from '../api/create-docs-api-client.js';
import type { RequestBudget } from '../api/service-budget.js';
import type { Config } from '../config/config-schema.js';
import type { Env } from '../config/interpolate-env.js';
import type { GitMirror } from '../git/git-mirror.js';
import { MirrorRegistry } from '../git/mirror-registry.js';
import { lazyRepoCredentials, type RepoCredentials } from '../git/repo-credentials.js';
import { redactUrlCredentials } from '../log/redact-url-credentials.js';
import { checkArtifactStorage } from './artifacts-check.js';
import { CheckRunner } from './check-runner.js';
import type { NameSource } from './config-sources.js';
import { type Finding, skipped } from './doctor-finding.js';
import { configSecrets, hideSecrets } from './hide-secrets.js';
import { checkOpenApiSource } from './openapi-source-check.js';
import { checkRedis } from './redis-checks.js';
import { checkRepositories } from './repository-checks.js';
import { checkService, checkSpace, type ServiceCheckInput } from './service-checks.js';
import { checkWatchPath } from './watch-path-check.js';

export type DoctorScope = 'all' | 'online';

export const DEFAULT_CHECK_TIMEOUT_MS = 20_000;
const DEFAULT_CONCURRENCY = 8;

export interface DoctorOptions {
  config: Config;
  /** Names keys for hints, with the variables they come from. */
  names: NameSource;
  /** Where docsync starts: relative paths (data folder, watch paths, spec files) are relative to it. */
  cwd: string;
  env: Env;
  scope: DoctorScope;
  /** The limit of each check. */
  timeoutMs?: number;
  concurrency?: number;
  signal?: AbortSignal;
  /**
   * The daemon's credentials, for its startup checks: a GitHub App's token is then minted once for
   * both. Built for this run otherwise.
   */
  credentials?: RepoCredentials;
  /** The daemon's budget of service.rateLimit, for its startup checks; none for `docsync doctor`. */
  serviceBudget?: RequestBudget | undefined;
}

export async function runDoctor(options: DoctorOptions): Promise<Finding[]> {
  const { config, names, cwd, env } = options;
  const runner = new CheckRunner({
    timeoutMs: options.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS,
    concurrency: options.concurrency ?? DEFAULT_CONCURRENCY,
    signal: options.signal,
  });
  const silent = pino({ level: 'silent' });
  const api =
    config.service === undefined
      ? undefined
      : createDocsApiClient(config.service, {
          retry: { maxAttempts: 2 },
          logger: silent,
          budget: options.serviceBudget,
        });
  // A spec read from a mapped repository needs a mirror of it: made for this run, then removed,
  // so that the daemon's own mirrors are never fetched into by two processes at once.
  const needsMirror = config.openapi.some(
    (spec) => typeof spec.source === 'object' && 'mapping' in spec.source,
  );
  const mirrorDir = needsMirror ? await mkdtemp(join(tmpdir(), 'docsync-doctor-mirrors-')) : undefined;
  // Key files are read as each repository is first checked: a bad one is that repository's finding.
  const credentials =
    options.credentials ?? lazyRepoCredentials(config, { log: silent, env: { ...env }, cwd });
  const mirrors =
    mirrorDir === undefined
      ? undefined
      : new MirrorRegistry({ dataDir: mirrorDir, log: silent, env: { ...env }, credentials });
  const mirrorFor = (repo: string): GitMirror => {
    if (mirrors === undefined) throw new Error('no mirror folder: no spec reads a mapped repository');
    return mirrors.mirrorFor(repo);
  };
  try {
    const groups: Promise<Finding[]>[] = [];
    if (options.scope === 'all') groups.push(checkRedis({ config, runner, names, cwd, env }));
    if (api === undefined || config.service === undefined) {
      if (options.scope === 'all')
        groups.push(Promise.resolve([skipped('service', undefined, 'no mapping or spec needs it')]));
    } else {
      const input: ServiceCheckInput = {
        api,
        baseUrl: redactUrlCredentials(config.service.baseUrl),
        runner,
        names,
      };
      groups.push(serviceAndSpaces(input, config));
    }
    groups.push(
      Promise.all(checkRepositories({ mappings: config.mappings, runner, names, env, credentials })),
    );
    groups.push(
      Promise.all(
        config.mappings.flatMap(
          (mapping, index) => checkWatchPath({ runner, names, cwd }, mapping, index) ?? [],
        ),
      ),
    );
    groups.push(
      Promise.all(
        config.openapi.map((spec, index) =>
          checkOpenApiSource({ config, runner, names, cwd, mirrorFor }, spec, index),
        ),
      ),
    );
    const artifacts = checkArtifactStorage({ s3: config.artifacts.s3, runner });
    if (artifacts !== undefined) groups.push(artifacts.then((finding) => [finding]));
    const findings = (await Promise.all(groups)).flat();
    return hideSecrets(findings, configSecrets(config));
  } finally {
    await api?.close();
    if (mirrorDir !== undefined) await rm(mirrorDir, { recursive: true, force: true });
  }
}

/** The spaces are read once the service has answered: with a refused token each would only repeat it. */
async function serviceAndSpaces(input: ServiceCheckInput, config: Config): Promise<Finding[]> {
  const service = await checkService(input);
  if (service.status === 'fail') {
    return [
      service,
      ...config.mappings.map((mapping) => skipped('space', mapping.name, 'the service check failed')),
    ];
  }
  const spaces = await Promise.all(
    config.mappings.map((mapping, index) => checkSpace(input, mapping, index)),
  );
  return [service, ...spaces];
}
