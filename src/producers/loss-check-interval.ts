// How often a process looks whether Redis lost what docsync put in it at start: often enough that
// the schedulers are back within one poll interval, never more than once a second.
import { SECOND } from '../config/duration.js';
import type { ScheduledConfig } from './sync-all-schedulers.js';

export const LOSS_CHECK_MIN_MS = SECOND;
export const LOSS_CHECK_MAX_MS = 5 * SECOND;

/**
 * Half the shortest `every` of the configured polls and schedules, between 1 s and 5 s: a loss is
 * seen, and the schedulers back, before the shortest poll would have ticked twice. Cron schedules
 * tick at most once a minute, which 5 s serves; a poll of a direction a mapping does not run only
 * makes the checks more frequent.
 */
export function lossCheckIntervalMs(config: ScheduledConfig): number {
  const intervals = [
    ...config.mappings.flatMap((mapping) => [
      mapping.git.poll,
      mapping.changeRequest.poll,
      mapping.export.poll,
      mapping.links.every,
    ]),
    ...config.branchMappings.map((mapping) => mapping.git.poll),
    ...config.openapi.map((spec) => spec.every),
  ].filter((every): every is number => every !== undefined);
  const shortest = Math.min(...intervals, 2 * LOSS_CHECK_MAX_MS);
  return Math.min(LOSS_CHECK_MAX_MS, Math.max(LOSS_CHECK_MIN_MS, Math.floor(shortest / 2)));
}
