// Whether a process a test knows by pid has ended. A process whose parent died is adopted by pid 1
// (or a subreaper) and, until that one reaps it, stays a zombie: it has ended all the same.
import { readFileSync } from 'node:fs';

export function processEnded(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    // No /proc (not Linux), or it ended between the two looks.
    return process.platform === 'linux';
  }
}
