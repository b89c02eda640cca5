// The safety net of a repository whose push webhooks arrive: its scheduled polls look only every
// hooks.safetyPoll, on the tick nearest it, and every tick again when no webhook is known.
import { describe, expect, it } from 'vitest';
import { planSafetyNet } from '../../../src/import/plan-safety-net.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const T = 1_767_000_000_000;

describe('planSafetyNet', () => {
  it('looks on every tick while no webhook is known', () => {
    expect(planSafetyNet({}, T, MINUTE, HOUR)).toEqual({ kind: 'look' });
  });

  it('skips the ticks after a webhook until the safety poll is due, counted from the last look', () => {
    expect(planSafetyNet({ hookAt: T, lookAt: T }, T + MINUTE, MINUTE, HOUR)).toEqual({
      kind: 'skip',
      nextLookAt: T + HOUR,
    });
    expect(
      planSafetyNet({ hookAt: T, lookAt: T + 2 * HOUR }, T + 2 * HOUR + 59 * MINUTE, MINUTE, HOUR),
    ).toEqual({
      kind: 'skip',
      nextLookAt: T + 3 * HOUR,
    });
  });

  it('is not put off by webhooks for other branches: the look is due a safety poll after the last look', () => {
    expect(planSafetyNet({ hookAt: T + 50 * MINUTE, lookAt: T }, T + HOUR, MINUTE, HOUR)).toEqual({
      kind: 'safety-look',
      hookAt: T + 50 * MINUTE,
    });
    // Hooked, never looked at since: counted from the webhook.
    expect(planSafetyNet({ hookAt: T }, T + 10 * MINUTE, MINUTE, HOUR)).toEqual({
      kind: 'skip',
      nextLookAt: T + HOUR,
    });
  });

  it('looks on the tick nearest the safety poll, not a tick after it', () => {
    // Ticks land a little before or after the hour: the one 30 s early looks.
    expect(planSafetyNet({ hookAt: T, lookAt: T }, T + HOUR - 30_000, MINUTE, HOUR)).toEqual({
      kind: 'safety-look',
      hookAt: T,
    });
    expect(planSafetyNet({ hookAt: T, lookAt: T }, T + HOUR - 31_000, MINUTE, HOUR).kind).toBe('skip');
  });

  it('keeps git.poll when the safety poll is not longer', () => {
    expect(planSafetyNet({ hookAt: T, lookAt: T }, T + 1000, HOUR, HOUR)).toEqual({ kind: 'look' });
    expect(planSafetyNet({ hookAt: T, lookAt: T }, T + 1000, MINUTE, 1000)).toEqual({ kind: 'look' });
  });
});
