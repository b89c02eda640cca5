import { describe, expect, it } from 'vitest';
import { planUpkeep } from '../../../src/upkeep/plan-upkeep.js';

const mapping = (autoUpdate: 'always' | 'before-merge' | 'never', enabled = true) => ({
  changeRequest: { subject: '{message}', autoUpdate, manage: 'own' as const, poll: 60_000 },
  merge: { enabled, approvals: 1, resolvedComments: false, noBrokenLinks: false },
});
const mergeable = { mergeable: true as const, reasons: [] as [] };
const onlyOutdated = { mergeable: false as const, reasons: ['outdated'] };

describe('planUpkeep', () => {
  it('updates an outdated change request on every poll only with autoUpdate: always', () => {
    expect(planUpkeep(mapping('always'), true, onlyOutdated)).toEqual({ update: true, merge: true });
    expect(
      planUpkeep(mapping('before-merge'), true, {
        mergeable: false,
        reasons: ['outdated', 'needs 1 more approval'],
      }),
    ).toEqual({ update: false, merge: false });
  });

  it('tries a merge when only its age stands in the way and the policy may update first', () => {
    expect(planUpkeep(mapping('before-merge'), true, onlyOutdated)).toEqual({ update: false, merge: true });
    expect(planUpkeep(mapping('never'), true, onlyOutdated)).toEqual({ update: false, merge: false });
  });

  it('merges what is mergeable only when merging is enabled', () => {
    expect(planUpkeep(mapping('before-merge'), false, mergeable)).toEqual({ update: false, merge: true });
    expect(planUpkeep(mapping('before-merge', false), false, mergeable)).toEqual({
      update: false,
      merge: false,
    });
  });
});
