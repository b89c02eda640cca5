// `docsync start`: the daemon. Reads the configuration once, makes the logger, hands signals to the
// shutdown owner, and starts the daemon's parts; a start that cannot complete closes what it opened
// and exits 2 (configuration or environment) or 1 (anything else).
import { resolve } from 'node:path';
import type { DestinationStream } from 'pino';
import { startDaemon } from '../daemon/start-daemon.js';
import { DocsyncError } from '../errors/docsync-error.js';
import { EnvironmentError } from '../errors/environment-error.js';
import { Shutdown } from '../lifecycle/shutdown.js';
import { createLogger, type LogLevel } from '../log/create-logger.js';
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

export async function startCommand(
  options: StartOptions,
  io: CliIo,
  jobs: readonly AnyJobDefinition[],
): Promise<number> {
  const file = options.config ?? io.env.DOCSYNC_CONFIG ?? DEMO_CONFIG;
  const config = await readCliConfig(file, io);
  if (config === undefined) return EXIT.invalid;
  const log = createLogger({
    level: options.logLevel ?? config.log.level,
    ...(options.logFormat === 'pretty' ? { destination: await prettyStream(io) } : {}),
  });
  if (file === DEMO_CONFIG)
    log.info({ config: file }, 'no --config given: running the embedded default configuration');
  const shutdown = new Shutdown({ log, timeoutMs: config.shutdownTimeout });
  shutdown.listen();
  try {
    await shutdown.starting(
      startDaemon({
        config: {
          ...config,
          dataDir: resolve(io.cwd, config.dataDir),
          // Local spec files are relative to where docsync was started, as the data folder is.
          openapi: config.openapi.map((spec) =>
            typeof spec.source === 'object' && 'file' in spec.source
              ? { ...spec, source: { file: resolve(io.cwd, spec.source.file) } }
              : spec,
          ),
          dryRun: config.dryRun || options.dryRun === true,
        },
        log,
        jobs,
        shutdown,
        version: VERSION,
      }),
    );
    return EXIT.ok;
  } catch (error) {
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
