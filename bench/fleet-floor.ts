// The floor of an idle fleet, as a process of its own (bench/fleet-bench.ts starts it): what a
// poller cannot do without when nothing changes, spread evenly over each interval. One
// `git ls-remote --heads` of each repository and one open change request list of each space per
// interval, for `seconds`; it prints its CPU (its own and its git processes') as one JSON line.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { processTreeCpuSeconds } from './process-tree-cpu.js';

const run = promisify(execFile);

export interface FloorInput {
  repos: string[];
  spaces: string[];
  baseUrl: string;
  token: string;
  intervalMs: number;
  seconds: number;
}

export interface FloorOutput {
  cpuSeconds: number;
  seconds: number;
  looks: number;
  lists: number;
}

async function list(input: FloorInput, space: string): Promise<void> {
  const answer = await fetch(`${input.baseUrl}/spaces/${space}/change-requests?status=open`, {
    headers: { authorization: `Bearer ${input.token}` },
  });
  if (!answer.ok) throw new Error(`floor: listing ${space} answered ${answer.status}`);
  await answer.arrayBuffer();
}

async function main(): Promise<void> {
  const input = JSON.parse(process.env.DOCSYNC_FLEET_FLOOR ?? '{}') as FloorInput;
  const work: Array<() => Promise<void>> = [
    ...input.repos.map((repo) => async () => {
      await run('git', ['ls-remote', '--heads', repo]);
    }),
    ...input.spaces.map((space) => () => list(input, space)),
  ];
  let looks = 0;
  let lists = 0;
  const pending = new Set<Promise<void>>();
  const cpuBefore = await processTreeCpuSeconds(process.pid);
  const started = performance.now();
  const endsAt = started + input.seconds * 1000;
  // Each item at its own place in the interval, as evenly spread polls would run.
  for (let round = 0; started + round * input.intervalMs < endsAt; round += 1)
    for (const [index, item] of work.entries()) {
      const at = started + round * input.intervalMs + (index / work.length) * input.intervalMs;
      if (at >= endsAt) continue;
      const done = new Promise<void>((resolve, reject) =>
        setTimeout(
          () =>
            item().then(() => {
              if (index < input.repos.length) looks += 1;
              else lists += 1;
              resolve();
            }, reject),
          at - performance.now(),
        ),
      );
      pending.add(done);
    }
  await Promise.all(pending);
  const output: FloorOutput = {
    cpuSeconds: (await processTreeCpuSeconds(process.pid)) - cpuBefore,
    seconds: (performance.now() - started) / 1000,
    looks,
    lists,
  };
  process.stdout.write(`${JSON.stringify(output)}\n`);
}

await main();
