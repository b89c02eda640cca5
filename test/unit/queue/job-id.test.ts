import { describe, expect, it } from 'vitest';
import { jobId } from '../../../src/queue/job-id.js';

describe('jobId', () => {
  it('joins what and to-what into one stable id', () => {
    expect(jobId('update', 'space_1', 'cr_9', 'rev_3')).toBe('update/space_1/cr_9/rev_3');
    expect(jobId('merge', 'space_1', 7, 'rev')).toBe(jobId('merge', 'space_1', '7', 'rev'));
  });

  it('encodes separators inside a part, so ids never collide or contain ":"', () => {
    expect(jobId('import', 'a/b', 'c')).not.toBe(jobId('import', 'a', 'b/c'));
    expect(jobId('links', 'space:1', 'main')).toBe('links/space%3A1/main');
  });
});
