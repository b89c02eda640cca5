// The git processes working in one repository, for tests that check none outlived what started it.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The git processes whose command line names `gitDir`: their pids and command lines, as ps shows them. */
export async function gitProcessesIn(gitDir: string): Promise<string[]> {
  const { stdout } = await run('ps', ['-eo', 'pid,args']);
  return stdout.split('\n').filter((line) => /^\s*\d+ git /.test(line) && line.includes(gitDir));
}
