// Whether a scheduled git poll looks at its repository, when the repository's push webhooks arrive
// (src/state/repository-hooks.ts). The webhook says when to look: the scheduled poll only looks
// every `hooks.safetyPoll` (the mapping's `git.poll` when that is longer), in case a webhook was
// lost. A repository that no webhook was received for is looked at on every tick.
import type { RepositoryHooks } from '../state/repository-hooks.js';

export type SafetyNetPlan =
  /** No webhook known: an ordinary poll. */
  | { kind: 'look' }
  /** Hooked, and a safety look is due: a commit it finds was not announced by a webhook. */
  | { kind: 'safety-look'; hookAt: number }
  /** Hooked, and looked at lately: nothing to do until `nextLookAt`. */
  | { kind: 'skip'; nextLookAt: number };

/**
 * `now` and the times in ms; `pollMs` the mapping's `git.poll`, `safetyPollMs` `hooks.safetyPoll`.
 * The look falls on the tick nearest the safety interval, not one whole tick after it.
 */
export function planSafetyNet(
  hooks: RepositoryHooks,
  now: number,
  pollMs: number,
  safetyPollMs: number,
): SafetyNetPlan {
  const { hookAt } = hooks;
  if (hookAt === undefined || safetyPollMs <= pollMs) return { kind: 'look' };
  // Counted from the last look, not the last webhook: pushes to other branches of a busy
  // repository do not put off the look at this one.
  const last = hooks.lookAt ?? hookAt;
  if (now - last < safetyPollMs - pollMs / 2) return { kind: 'skip', nextLookAt: last + safetyPollMs };
  return { kind: 'safety-look', hookAt };
}
