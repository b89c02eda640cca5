// Push webhook -> import request, sampled against a running `docsync start`: a commit pushed to a
// bench repository, then its signed GitHub push webhook, and the time until the import request for
// the mapping's space reaches the local service (seen by the request clock in front of it).

import { setTimeout as sleep } from 'node:timers/promises';
import type { BenchRepo } from './bench-git-repo.js';
import type { RequestClock } from './request-clock.js';
import { sendPushHook } from './send-push-hook.js';

export interface PushSampling {
  /** docsync's HTTP address, where `/hooks/git` is. */
  address: string;
  repo: BenchRepo;
  /** The file (relative to the repository) the mapping imports, appended to by each push. */
  file: string;
  /** The mapping's space: its import request is the one timed. */
  space: string;
  secret: string;
  clock: RequestClock;
  pushes: number;
  /** Between one sample's import request and the next push: the import finishes meanwhile. */
  gapMs: number;
}

/** One figure per push: ms from sending its webhook to the import request's arrival. */
export async function pushLatencies(sampling: PushSampling): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < sampling.pushes; i += 1) {
    const sha = await sampling.repo.appendAndPush([sampling.file], `\nPush ${i}.\n`, `Push ${i}`);
    // Into the space, or (as a git import goes) into its change request's content.
    const arrived = sampling.clock.next(
      'POST',
      (path) => path.includes(`/spaces/${sampling.space}/`) && path.endsWith('/content/import'),
    );
    const sent = Date.now();
    const status = await sendPushHook(sampling.address, sampling.repo.remote, sha, sampling.secret);
    if (status !== 202) throw new Error(`bench: the push webhook answered ${status}`);
    samples.push((await withTimeout(arrived, 60_000, sha)) - sent);
    await sleep(sampling.gapMs);
  }
  return samples;
}

function withTimeout(arrival: Promise<number>, ms: number, sha: string): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`bench: no import request within ${ms} ms of the webhook for ${sha}`)),
      ms,
    );
    void arrival.then((at) => {
      clearTimeout(timer);
      resolve(at);
    });
  });
}
