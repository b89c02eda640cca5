// The command line. Heavy modules (BullMQ, fastify) load inside the commands, so that `--help`
// answers at once.
import { Command, CommanderError, Option } from 'commander';
import { LOG_LEVELS } from '../config/config-schema.js';
import type { LogLevel } from '../log/create-logger.js';
import { VERSION } from '../package-info.js';
import type { AnyJobDefinition } from '../queue/job-definition.js';
import type { CliIo } from './cli-io.js';
import { EXIT } from './exit-codes.js';

export interface MainOptions {
  /** The processors `start` runs; the registry of jobs/ when not given. */
  jobs?: readonly AnyJobDefinition[];
}

/** Runs the command line; resolves with the exit code once the command's work is set going. */
export async function main(argv: readonly string[], io: CliIo, options: MainOptions = {}): Promise<number> {
  let exitCode: number = EXIT.ok;
  const program = new Command('docsync')
    .description('Keeps git repositories and documentation service spaces in sync, and OpenAPI specs fresh.')
    .version(VERSION)
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) })
    .showHelpAfterError('(run docsync --help for usage)');

  program
    .command('start')
    .description('run the daemon: producers, workers and the HTTP server (status, health)')
    .option(
      '-c, --config <file>',
      'configuration file (default: $DOCSYNC_CONFIG, else the embedded config/demo.yaml)',
    )
    .addOption(
      new Option('--log-format <format>', 'json lines, or pretty lines for people')
        .choices(['json', 'pretty'])
        .default('json'),
    )
    .addOption(
      new Option('--log-level <level>', 'overrides log.level of the configuration').choices(LOG_LEVELS),
    )
    .action(async (flags: { config?: string; logFormat: 'json' | 'pretty'; logLevel?: LogLevel }) => {
      const { startCommand } = await import('./start-command.js');
      const jobs = options.jobs ?? (await import('../../jobs/registry.js')).JOBS;
      exitCode = await startCommand(flags, io, jobs);
    });

  program
    .command('validate-config')
    .description('check a configuration file and exit: 0 when valid, 2 with one line per problem')
    .argument('[file]', 'configuration file')
    .option('-c, --config <file>', 'configuration file (same as the argument)')
    .action(async (file: string | undefined, flags: { config?: string }) => {
      const chosen = file ?? flags.config ?? io.env.DOCSYNC_CONFIG;
      if (chosen === undefined) {
        io.stderr.write(
          'docsync validate-config: name a file, for example: docsync validate-config config/docsync.example.yaml\n',
        );
        exitCode = EXIT.invalid;
        return;
      }
      const { validateConfigCommand } = await import('./validate-config-command.js');
      exitCode = await validateConfigCommand(chosen, io);
    });

  if (argv.length === 0) {
    io.stderr.write(program.helpInformation());
    return EXIT.invalid;
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    return error.code === 'commander.helpDisplayed' ||
      error.code === 'commander.version' ||
      error.code === 'commander.help'
      ? EXIT.ok
      : EXIT.invalid;
  }
  return exitCode;
}
