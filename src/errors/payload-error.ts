// A job whose data does not match its processor's schema: running it again cannot help.
import type { z } from 'zod';
import { DocsyncError } from './docsync-error.js';
import { formatZodPath } from './format-zod-path.js';

export class PayloadError extends DocsyncError {
  readonly issues: readonly string[];

  constructor(jobName: string, error: z.ZodError) {
    const issues = error.issues.map(
      (issue) => `${formatZodPath(issue.path) || '(payload)'}: ${issue.message}`,
    );
    super('JOB_PAYLOAD_INVALID', `invalid payload for job ${jobName}: ${issues.join('; ')}`);
    this.issues = issues;
  }
}
