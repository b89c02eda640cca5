import { describe, expect, it } from 'vitest';
import { jobId, rerunJobId } from '../../../src/queue/job-id.js';

describe('rerunJobId', () => {
  it("names the work and when it was queued again, without the ':' BullMQ refuses", () => {
    const work = jobId('import', 'docs', 'a'.repeat(40));
    const id = rerunJobId(work, new Date('2025-03-04T05:06:07.089Z'));
    expect(id).toBe(`import/docs/${'a'.repeat(40)}/rerun-20250304T050607.089Z`);
    expect(id).not.toContain(':');
  });

  it('gives later reruns of the same work ids that sort after earlier ones', () => {
    const work = jobId('merge', 'spc', 'cr_1', 'rev_1');
    const earlier = rerunJobId(work, new Date('2025-03-04T05:06:07.089Z'));
    const later = rerunJobId(work, new Date('2025-03-04T05:06:07.090Z'));
    expect([later, earlier].sort()).toEqual([earlier, later]);
  });
});
