// `docsync start`: the daemon. Reads the configuration once, makes the logger, hands signals to the
// shutdown owner, and starts the daemon's parts; a start that cannot complete closes what it opened
// and exits 2 (configuration or environment) or 1 (anything else). With no configuration given it
// runs the embedded demo: the local service, a demo repository and config/demo.yaml. Once started,
// it runs the online checks of `docsync doctor` and logs them: it never exits on them, since the
// service or a remote may come back.

import { resolve } from 'node:path';
import type { DestinationStream } from 'pino';
import type { Config } from '../config/config-schema.js';
import { withAbsoluteLocalPaths } from '../config/openapi-schema.js';
import { type Daemon, startDaemon } from '../daemon/start-daemon.js';
import type { Demo } from '../demo/start-demo.js';
import { DocsyncError } from '../errors/docsync-error.js';
import { EnvironmentError } from '../errors/environment-error.js';
import { Shutdown } from '../lifecycle/shutdown.js';
import { createLogger, type Logger, type LogLevel } from '../log/create-logger.js';
import { isLogLevel } from '../log/log-levels.js';
import { DEMO_CONFIG, VERSION } from '../package-info.js';
import type { AnyJobDefinition } from '../queue/job-definition.js';
import type { CliIo } from './cli-io.js';
import { EXIT } from './exit-codes.js';
import { readCliConfig } from './read-cli-config.js';

export interface StartOptions {
  config?: string;
  logFormat: 'json' | 'pretty';
  logLevel?: LogLevel;
  dryRun?: boolean;
}

/** Where the demo keeps its repository and Redis files, relative to where docsync started. */
export const DEFAULT_DEMO_DIR = '.docsync/demo';
/** The demo stops quicker than a daemon: nothing it runs is worth a long wait. */
const DEMO_SHUTDOWN_TIMEOUT_MS = 15_000;

/** `jobs`: the processors to run instead of the daemon's registry (a test's). */
export async function startCommand(
  options: StartOptions,
  io: CliIo,
  jobs?: readonly AnyJobDefinition[],
): Promise<number> {
  const file = options.config ?? io.env.DOCSYNC_CONFIG;
  if (file === undefined) return startDemoCommand(options, io, jobs);
  const config = await readCliConfig(file, io);
  if (config === undefined) return EXIT.invalid;
  const log = await commandLogger(options, io, options.logLevel ?? config.log.level);
  const shutdown = new Shutdown({ log, timeoutMs: config.shutdownTimeout });
  shutdown.listen();
  return runDaemon({ config, file, log, shutdown, io, jobs, dryRun: options.dryRun === true });
}

/**
 * The demo: its parts start first (config/demo.yaml is written with their addresses), then the
 * daemon on a Redis emptied of the previous run, as the in-memory service starts empty too.
 */
async function startDemoCommand(
  options: StartOptions,
  io: CliIo,
  jobs: readonly AnyJobDefinition[] | undefined,
): Promise<number> {
  const envLevel = io.env.DOCSYNC_LOG_LEVEL;
  const log = await commandLogger(
    options,
    io,
    options.logLevel ?? (envLevel !== undefined && isLogLevel(envLevel) ? envLevel : 'info'),
  );
  const shutdown = new Shutdown({ log, timeoutMs: DEMO_SHUTDOWN_TIMEOUT_MS });
  shutdown.listen();
  const dir = resolve(io.cwd, io.env.DOCSYNC_DEMO_DIR ?? DEFAULT_DEMO_DIR);
  log.info({ config: DEMO_CONFIG, dir }, 'no --config given: running the embedded demo');
  let demo: Demo;
  try {
    // The local service and the demo repository load only for the demo.
    const { startDemo } = await import('../demo/start-demo.js');
    demo = await shutdown.starting(startDemo({ dir, log, shutdown, env: io.env }));
  } catch (error) {
    return failedStart(error, log, shutdown, io);
  }
  const config = await readCliConfig(DEMO_CONFIG, { ...io, env: { ...io.env, ...demo.env } });
  if (config === undefined) {
    await shutdown.run('invalid demo configuration', EXIT.invalid);
    return EXIT.invalid;
  }
  return runDaemon({
    config,
    file: DEMO_CONFIG,
    log,
    shutdown,
    io,
    jobs,
    dryRun: options.dryRun === true,
    freshRedis: true,
    onStarted: (daemon) => {
      const page = `${daemon.httpAddress}/`;
      log.info({ statusPage: page, edit: demo.editFile }, 'demo ready');
      io.stderr.write(
        [
          '',
          'docsync demo is running.',
          `  Status page: ${page}  (queues: ${daemon.httpAddress}/ui)`,
          `  Edit a page: ${demo.editFile}`,
          '               save it, and a new change request appears on the status page within seconds.',
          `  Or commit in ${demo.repo} (polled every 10 s).`,
          '  Stop: Ctrl-C.',
          '',
          '',
        ].join('\n'),
      );
    },
  });
}

interface RunDaemonOptions {
  config: Config;
  /** The configuration file, for the startup checks' hints (which variable a key comes from). */
  file: string;
  log: Logger;
  shutdown: Shutdown;
  io: CliIo;
  jobs: readonly AnyJobDefinition[] | undefined;
  dryRun: boolean;
  freshRedis?: boolean;
  onStarted?: (daemon: Daemon) => void;
}

async function runDaemon(options: RunDaemonOptions): Promise<number> {
  const { config, log, shutdown, io } = options;
  try {
    const daemon = await shutdown.starting(
      startDaemon({
        config: {
          ...config,
          dataDir: resolve(io.cwd, config.dataDir),
          // Local spec files (and their root) are relative to where docsync was started, as the data folder is.
          openapi: config.openapi.map((spec) => withAbsoluteLocalPaths(spec, io.cwd)),
          dryRun: config.dryRun || options.dryRun,
        },
        log,
        ...(options.jobs === undefined ? {} : { jobs: options.jobs }),
        shutdown,
        version: VERSION,
        cwd: io.cwd,
        freshRedis: options.freshRedis === true,
      }),
    );
    options.onStarted?.(daemon);
    runStartupChecks(options, daemon);
    return EXIT.ok;
  } catch (error) {
    return failedStart(error, log, shutdown, io);
  }
}

/**
 * The online checks of `docsync doctor` (service, spaces, repositories, watch paths, OpenAPI
 * sources), run in the background once docsync is up; Redis was judged while connecting. A
 * shutdown stops them and waits for them, so that no line is logged after it.
 */
function runStartupChecks(
  options: RunDaemonOptions,
  daemon: Pick<Daemon, 'credentials' | 'serviceBudget' | 'redis'>,
): void {
  const { config, io, shutdown } = options;
  const log = options.log.child({ component: 'startup-check' });
  const done = (async () => {
    // The checks' modules (the OpenAPI reader, git, the service client) load once docsync serves.
    const [{ readConfigSources }, { runDoctor }, { logFindings }] = await Promise.all([
      import('../doctor/config-sources.js'),
      import('../doctor/run-doctor.js'),
      import('../doctor/log-findings.js'),
    ]);
    // Replicas started together check once (src/daemon/claim-startup-checks.ts).
    const { claimStartupChecks, STARTUP_CHECKS_FRESH_SECONDS } = await import(
      '../daemon/claim-startup-checks.js'
    );
    const claimed = await claimStartupChecks(daemon.redis.producer(), config, new Date()).catch(() => true);
    if (!claimed) {
      log.info(
        { freshSeconds: STARTUP_CHECKS_FRESH_SECONDS },
        'startup checks skipped: a process with this configuration ran them lately; docsync doctor runs them',
      );
      return;
    }
    const names = await readConfigSources(resolve(io.cwd, options.file));
    const findings = await runDoctor({
      config,
      names,
      cwd: io.cwd,
      env: io.env,
      scope: 'online',
      signal: shutdown.begun,
      credentials: daemon.credentials,
      // Every replica checks every space as it starts: within the shared budget, as the jobs.
      serviceBudget: daemon.serviceBudget,
    });
    if (!shutdown.begun.aborted) logFindings(findings, log);
  })().catch((error: unknown) => {
    if (!shutdown.begun.aborted) log.warn({ err: error }, 'startup checks could not run');
  });
  shutdown.add('startup checks', () => done);
}

async function failedStart(error: unknown, log: Logger, shutdown: Shutdown, io: CliIo): Promise<number> {
  if (shutdown.begun.aborted) {
    // A signal arrived while starting: the shutdown owner is already closing what had started.
    await shutdown.run('signal while starting');
    return shutdown.exitCode ?? EXIT.ok;
  }
  const code = error instanceof EnvironmentError ? EXIT.invalid : EXIT.failure;
  log.fatal(
    { err: error, code: error instanceof DocsyncError ? error.code : undefined },
    'docsync cannot start',
  );
  if (error instanceof EnvironmentError) io.stderr.write(`docsync: ${error.message}\n`);
  await shutdown.run('start failed', code);
  return shutdown.exitCode ?? code;
}

async function commandLogger(options: StartOptions, io: CliIo, level: LogLevel): Promise<Logger> {
  return createLogger({
    level,
    ...(options.logFormat === 'pretty' ? { destination: await prettyStream(io) } : {}),
  });
}

async function prettyStream(io: CliIo): Promise<DestinationStream> {
  const { default: pretty } = await import('pino-pretty');
  return pretty({
    colorize: 'isTTY' in io.stdout && io.stdout.isTTY === true,
    sync: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
    destination: io.stdout,
  });
}
