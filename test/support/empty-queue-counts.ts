// The job counts of a queue with no jobs, each state docsync counts at zero: what /status and the
// metrics show for an idle queue.
import type { QueueCounts } from '../../src/queue/queues.js';

export const EMPTY_QUEUE_COUNTS: QueueCounts = {
  waiting: 0,
  active: 0,
  delayed: 0,
  prioritized: 0,
  'waiting-children': 0,
  completed: 0,
  failed: 0,
};
