// The queues of the flow (docs/architecture.md): one per kind of work, so that a slow export never holds up
// imports and each can be paused or rate-limited on its own.
export const QUEUE_NAMES = ['import', 'maintain', 'export', 'openapi', 'links', 'notify'] as const;

export type QueueName = (typeof QUEUE_NAMES)[number];
