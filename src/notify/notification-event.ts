// One thing that happened, as the webhooks of `notify:` are told: its kind, a sentence for people,
// where (mapping, space, job) and, for broken links, which ones. Made by src/notify/notifying-stores.ts
// and the job runner, carried in the payload of a send-notification job.
import { z } from 'zod';
import { NOTIFY_EVENTS } from './notify-config-schema.js';

/** How many broken links one notification lists; the count says how many there are. */
export const NOTIFIED_LINKS = 20;

export const notifiedLinkSchema = z.object({
  target: z.string(),
  page: z.string().optional(),
  file: z.string().optional(),
  line: z.number().int().optional(),
});

export const notificationEventSchema = z.object({
  kind: z.enum(NOTIFY_EVENTS),
  /** The same happening told twice is one notification: its job id is made of this. */
  key: z.string().min(1).max(300),
  at: z.string(),
  /** One sentence for people: "merged change request #3". */
  summary: z.string().max(2000),
  mapping: z.string().optional(),
  space: z.string().optional(),
  job: z.string().optional(),
  code: z.string().optional(),
  hint: z.string().optional(),
  /** Broken links: the newly broken ones (at most NOTIFIED_LINKS), and how many are new in all. */
  links: z.array(notifiedLinkSchema).max(NOTIFIED_LINKS).optional(),
  newlyBroken: z.number().int().min(0).optional(),
});

export type NotificationEvent = z.infer<typeof notificationEventSchema>;
