// The command line: runs the program of cli-program.ts and turns its outcome into an exit code.
import { CommanderError } from 'commander';
import type { CliIo } from './cli-io.js';
import { cliProgram, type MainOptions } from './cli-program.js';
import { EXIT } from './exit-codes.js';

export type { MainOptions } from './cli-program.js';

/** Runs the command line; resolves with the exit code once the command's work is set going. */
export async function main(argv: readonly string[], io: CliIo, options: MainOptions = {}): Promise<number> {
  let exitCode: number = EXIT.ok;
  const program = cliProgram(io, options, (code) => {
    exitCode = code;
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
