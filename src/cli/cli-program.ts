// The commands, their arguments and flags: the one definition that main.ts runs and that
// docs/reference/cli.md is written from. Heavy modules (BullMQ, fastify) load inside the actions, so
// that `--help` answers at once.
import { Command, Option } from 'commander';
import type { LogLevel } from '../log/create-logger.js';
import { LOG_LEVELS } from '../log/log-levels.js';
import { VERSION } from '../package-info.js';
import type { AnyJobDefinition } from '../queue/job-definition.js';
import type { CliIo } from './cli-io.js';
import type { DoctorFlags } from './doctor-command.js';
import type { EmulatorFlags } from './emulator-command.js';
import { EXIT } from './exit-codes.js';
import type { OnceFlags } from './once-command.js';
import type { OpenApiDiffFlags } from './openapi-diff-command.js';
import type { OpenApiReadFlags } from './openapi-read-flags.js';
import type { OpenApiUploadFlags } from './openapi-upload-command.js';
import type { RetryFlags } from './retry-command.js';
import type { StatusFlags } from './status-command.js';

/** The flags of `openapi validate` and `openapi diff` that read a document as a refresh would. */
const READ_FLAGS = {
  maxBytes: () =>
    new Option(
      '--max-bytes <size>',
      'the largest document, with its $ref files, to read (as maxBytes)',
    ).default('10MiB'),
  maxRefFiles: () =>
    new Option(
      '--max-ref-files <count>',
      "the most files its $refs may name (as maxRefFiles; a spec's default without it)",
    ),
  root: () =>
    new Option(
      '--root <dir>',
      "the folder a local document's $refs may reach (as source.root), its own folder by default",
    ),
};

export interface MainOptions {
  /** The processors `start` runs instead of the daemon's registry of jobs/ (a test's own). */
  jobs?: readonly AnyJobDefinition[];
}

/**
 * The command line's program. Each action reports its command's exit code through `setExitCode`
 * once its work is set going.
 */
export function cliProgram(io: CliIo, options: MainOptions, setExitCode: (code: number) => void): Command {
  const program = new Command('docsync')
    .description('Keeps git repositories and documentation service spaces in sync, and OpenAPI specs fresh.')
    .version(VERSION)
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) })
    .showHelpAfterError('(run docsync --help for usage)');

  addStartCommand(program, io, setExitCode, options.jobs);
  addConfigCommands(program, io, setExitCode);
  addOnceCommand(program, io, setExitCode);
  addDaemonControlCommands(program, io, setExitCode);
  addEmulatorCommand(program, io, setExitCode);
  addOpenApiCommands(program, io, setExitCode);
  return program;
}

/** `start`: the daemon. */
function addStartCommand(
  program: Command,
  io: CliIo,
  setExitCode: (code: number) => void,
  jobs: MainOptions['jobs'],
): void {
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
    .option(
      '--dry-run',
      'list the pages the import would add, change (+/- lines) and remove; change nothing (as dryRun: true)',
    )
    .action(
      async (flags: {
        config?: string;
        logFormat: 'json' | 'pretty';
        logLevel?: LogLevel;
        dryRun?: boolean;
      }) => {
        const { startCommand } = await import('./start-command.js');
        setExitCode(await startCommand(flags, io, jobs));
      },
    );
}

/** `validate-config` and `doctor`: checks of a configuration and of what it names. */
function addConfigCommands(program: Command, io: CliIo, setExitCode: (code: number) => void): void {
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
        setExitCode(EXIT.invalid);
        return;
      }
      const { validateConfigCommand } = await import('./validate-config-command.js');
      setExitCode(await validateConfigCommand(chosen, io));
    });

  program
    .command('doctor')
    .description(
      'check the configuration, Redis, the service and its token, spaces, repositories, watch paths and OpenAPI sources: exit 0 when all pass (warnings allowed), 1 when one fails, 2 on bad usage or configuration',
    )
    .option('-c, --config <file>', 'configuration file (default: $DOCSYNC_CONFIG)')
    .option('--json', 'print the findings as JSON')
    .option('--timeout <duration>', 'time limit of each check, such as 20s', '20s')
    .action(async (flags: DoctorFlags) => {
      const { doctorCommand } = await import('./doctor-command.js');
      setExitCode(await doctorCommand(flags, io));
    });
}

/** `once`: one import, without Redis. */
function addOnceCommand(program: Command, io: CliIo, setExitCode: (code: number) => void): void {
  program
    .command('once')
    .description(
      'import one mapping now, without Redis, and report the change request and its broken links (for CI)',
    )
    .option('-c, --config <file>', 'configuration file (default: $DOCSYNC_CONFIG)')
    .option('-m, --mapping <name>', 'the mapping to import (needed when there are several)')
    .option('--ref <rev>', 'import this revision of the repository in the current directory')
    .option('--worktree', 'import the working copy in the current directory')
    .option('--json', 'print the result as JSON (as --format json)')
    .option('--format <format>', 'text, json, junit, sarif, github (annotations) or markdown (default: text)')
    .option('--fail-on-broken-links', 'exit 3 when the change request has broken links')
    .option('--dry-run', 'plan and log every step, change nothing')
    .option(
      '--public-url <url>',
      'address at which the service reaches this run (default: its own listen address)',
    )
    .addOption(
      new Option(
        '--log-level <level>',
        'log level of stderr (the report holds the warnings and a failure: their log lines from info, a stack from debug)',
      )
        .choices(LOG_LEVELS)
        .default('warn'),
    )
    .action(async (flags: OnceFlags) => {
      const { onceCommand } = await import('./once-command.js');
      setExitCode(await onceCommand(flags, io));
    });
}

/** `resume`, `retry` and `status`: commands that talk to a running docsync. */
function addDaemonControlCommands(program: Command, io: CliIo, setExitCode: (code: number) => void): void {
  program
    .command('resume')
    .description('resume a paused mapping (after a force-push was reviewed) and poll it at once')
    .argument('<mapping>', 'the mapping to resume')
    .option('-c, --config <file>', 'configuration file (default: $DOCSYNC_CONFIG)')
    .action(async (mapping: string, flags: { config?: string }) => {
      const { resumeCommand } = await import('./resume-command.js');
      setExitCode(await resumeCommand(mapping, flags, io));
    });

  program
    .command('retry')
    .description(
      'run failed jobs again now: those of a mapping, one job, or all; exit 0 when some matched, 1 when none did',
    )
    .option('-m, --mapping <name>', 'the failed jobs of this mapping (its payload names it or its space)')
    .option('--job <id>', 'one failed job: <queue>:<id>, or an id looked up in every queue')
    .option('--all-failed', 'every failed job of every queue')
    .option('-c, --config <file>', 'configuration file, to find Redis (default: $DOCSYNC_CONFIG)')
    .action(async (flags: RetryFlags) => {
      const { retryCommand } = await import('./retry-command.js');
      setExitCode(await retryCommand(flags, io));
    });

  program
    .command('status')
    .description(
      'print what a running docsync does: health, mappings, change requests, specs, queues, next runs, failures; exit 1 when a mapping or spec is failing (health.failingAfter failures in a row), Redis refuses writes (disk full) or docsync cannot be read, 2 on bad usage',
    )
    .option(
      '--url <address>',
      "the daemon's HTTP address (default: http.listen of the configuration, else http://127.0.0.1:8787)",
    )
    .option(
      '--token <token>',
      'its http.token (default: $DOCSYNC_HTTP_TOKEN, else http.token of the configuration)',
    )
    .option(
      '-c, --config <file>',
      'configuration to read http.listen and http.token from (default: $DOCSYNC_CONFIG)',
    )
    .option('--json', 'print the JSON answer as it came')
    .action(async (flags: StatusFlags) => {
      const { statusCommand } = await import('./status-command.js');
      setExitCode(await statusCommand(flags, io));
    });
}

/** `emulator`: the local documentation service. */
function addEmulatorCommand(program: Command, io: CliIo, setExitCode: (code: number) => void): void {
  program
    .command('emulator')
    .description(
      'run the local documentation service (the interface of the service, in memory) for tests and offline use',
    )
    .option('-p, --port <port>', 'port to listen on (0: any free port)', '4010')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option(
      '-t, --token <token>',
      'the admin token, then name=token:role for each further member (repeatable)',
      collect,
      [],
    )
    .option(
      '--org <spec>',
      'a further organization: Title=Name:role,Name:role with the names of --token (repeatable)',
      collect,
      [],
    )
    .option('--state <file>', 'keep the data in this file across restarts')
    .option(
      '--faults <spec>',
      'inject faults, for example latency=50ms,429=0.1,5xx=0.05,retry-after=1,seed=7',
    )
    .addOption(new Option('--log-level <level>', 'log level').choices(LOG_LEVELS).default('warn'))
    .action(async (flags: EmulatorFlags) => {
      const { emulatorCommand } = await import('./emulator-command.js');
      setExitCode(await emulatorCommand(flags, io));
    });
}

/** `openapi validate|diff|upload`: OpenAPI documents, for pipelines. */
function addOpenApiCommands(program: Command, io: CliIo, setExitCode: (code: number) => void): void {
  const openapi = program
    .command('openapi')
    .description('check, compare and upload OpenAPI documents, for pipelines (validate, diff, upload)');
  openapi
    .command('validate')
    .description(
      "validate a document as a refresh does ($refs bundled and confined): exit 0 when valid, 1 with each problem's line and JSON pointer when not",
    )
    .argument('<source>', 'a file, or an http(s) address')
    .option('--json', 'print the result as JSON')
    .addOption(READ_FLAGS.maxBytes())
    .addOption(READ_FLAGS.maxRefFiles())
    .addOption(READ_FLAGS.root())
    .action(async (source: string, flags: OpenApiReadFlags) => {
      const { openApiValidateCommand } = await import('./openapi-validate-command.js');
      setExitCode(await openApiValidateCommand(source, flags, io));
    });
  openapi
    .command('diff')
    .description(
      'list the operations a new version adds, removes and changes, breaking changes marked: exit 0, 4 on breaking changes with --fail-on-breaking, 1 when a document is unreadable or invalid',
    )
    .argument('<old>', 'the old version: a file, or an http(s) address')
    .argument('<new>', 'the new version: a file, or an http(s) address')
    .option('--fail-on-breaking', 'exit 4 when a change breaks clients')
    .option('--json', 'print the changes as JSON')
    .addOption(READ_FLAGS.maxBytes())
    .addOption(READ_FLAGS.maxRefFiles())
    .addOption(READ_FLAGS.root())
    .action(async (oldSource: string, newSource: string, flags: OpenApiDiffFlags) => {
      const { openApiDiffCommand } = await import('./openapi-diff-command.js');
      setExitCode(await openApiDiffCommand(oldSource, newSource, flags, io));
    });
  openapi
    .command('upload')
    .description(
      'refresh one spec of the configuration now, without Redis: exit 0 when uploaded (or valid, with --dry-run), 1 when invalid or failed',
    )
    .requiredOption('-s, --slug <slug>', 'the slug of the spec in the configuration')
    .option('-c, --config <file>', 'configuration file (default: $DOCSYNC_CONFIG)')
    .option('--org <org>', 'the organization of the spec, when several have this slug')
    .option('--dry-run', 'read and validate, upload nothing')
    .option(
      '--max-ref-files <count>',
      "the most files its $refs may name, in place of the spec's maxRefFiles",
    )
    .option('--root <dir>', "the folder its $refs may reach, in place of the spec's source.root")
    .option('--json', 'print the result as JSON')
    .addOption(
      new Option('--log-level <level>', 'log level (logs go to stderr)').choices(LOG_LEVELS).default('warn'),
    )
    .action(async (flags: OpenApiUploadFlags) => {
      const { openApiUploadCommand } = await import('./openapi-upload-command.js');
      setExitCode(await openApiUploadCommand(flags, io));
    });
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}
