// Waits for a job's runs to complete, read from the runner's `job completed` log lines. A test that
// asserts that nothing happened waits first for the polls that could have made it happen, so it
// fails when they never ran instead of passing after a fixed sleep.
import { waitFor } from './wait-for.js';

type LogLine = Record<string, unknown>;

/** The `job completed` lines of job `name` in `lines` so far. */
export function completedRuns(lines: readonly LogLine[], name: string): LogLine[] {
  return lines.filter((line) => line.msg === 'job completed' && line.name === name);
}

/**
 * Resolves with the next `count` completed runs of job `name`, counted from the call, across all
 * the given daemons' log lines. With two or more, at least one whole run started after the call.
 */
export async function nextRuns(
  logs: readonly (readonly LogLine[])[],
  name: string,
  count: number,
  timeoutMs?: number,
): Promise<LogLine[]> {
  const seen = logs.map((lines) => completedRuns(lines, name).length);
  const since = () => logs.flatMap((lines, index) => completedRuns(lines, name).slice(seen[index]));
  return waitFor(
    () => {
      const runs = since();
      return runs.length >= count ? runs : undefined;
    },
    `${count} completed runs of ${name}`,
    timeoutMs,
  );
}
