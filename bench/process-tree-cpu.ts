// CPU seconds a process and everything it started have used, read from /proc (Linux): its own
// user and system time, the time of the children it has waited for (git commands that ended count
// there), and that of its descendants still running (long-lived `git cat-file` processes).
import { readdir, readFile } from 'node:fs/promises';

/** Clock ticks per second of /proc's times (`getconf CLK_TCK`: 100 on Linux). */
const TICKS_PER_SECOND = 100;

interface ProcStat {
  pid: number;
  ppid: number;
  /** utime + stime + cutime + cstime, in ticks. */
  ticks: number;
}

/** Fields after the command name, which may hold spaces and parentheses: cut after the last ')'. */
function parseStat(text: string): ProcStat | undefined {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < 0) return undefined;
  const pid = Number(text.slice(0, open).trim());
  // After ')': state(3) ppid(4) ... utime(14) stime(15) cutime(16) cstime(17), 1-based as in proc(5).
  const rest = text.slice(close + 2).split(' ');
  const field = (n: number) => Number(rest[n - 3] ?? 0);
  return { pid, ppid: field(4), ticks: field(14) + field(15) + field(16) + field(17) };
}

async function readStats(): Promise<ProcStat[]> {
  const stats: ProcStat[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    // A process may end between the listing and the read.
    const text = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => undefined);
    const stat = text === undefined ? undefined : parseStat(text);
    if (stat !== undefined) stats.push(stat);
  }
  return stats;
}

/** CPU seconds of `pid` and its descendants, ended ones included once reaped. */
export async function processTreeCpuSeconds(pid: number): Promise<number> {
  const stats = await readStats();
  const children = new Map<number, ProcStat[]>();
  for (const stat of stats) children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), stat]);
  const root = stats.find((stat) => stat.pid === pid);
  if (root === undefined) throw new Error(`bench: no process ${pid} in /proc`);
  let ticks = 0;
  const pending = [root];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    ticks += next.ticks;
    pending.push(...(children.get(next.pid) ?? []));
  }
  return ticks / TICKS_PER_SECOND;
}
