// The demo's reviewer: a member of the local service with the review role who approves every open
// change request of the demo space at its current revision, once, a moment after it appears, as a
// quick colleague would. It stands in for the person a real merge policy (`approvals: 1`) waits for.
import type { DocsApiClient } from '../api/docs-api-client.js';
import type { Logger } from '../log/create-logger.js';
import { throttledErrorLog } from '../log/throttled-error-log.js';

export interface DemoReviewerOptions {
  api: DocsApiClient;
  space: string;
  log: Logger;
  intervalMs: number;
}

export class DemoReviewer {
  readonly #options: DemoReviewerOptions;
  readonly #approved = new Set<string>();
  readonly #stop = new AbortController();
  readonly #onError: (error: Error) => void;
  #timer: NodeJS.Timeout | undefined;
  #round: Promise<void> = Promise.resolve();

  constructor(options: DemoReviewerOptions) {
    this.#options = options;
    this.#onError = throttledErrorLog(options.log, 'demo reviewer could not review');
  }

  start(): void {
    this.#timer = setInterval(() => {
      this.#round = this.#round
        .then(() => this.reviewOnce())
        .catch((error: unknown) => {
          if (!this.#stop.signal.aborted)
            this.#onError(error instanceof Error ? error : new Error(String(error)));
        });
    }, this.#options.intervalMs);
  }

  /** Approves each open change request at its current revision, once per revision. */
  async reviewOnce(): Promise<void> {
    const { api, space, log } = this.#options;
    const signal = this.#stop.signal;
    for await (const cr of api.changeRequests.listAll(space, { status: 'open', signal })) {
      const key = `${cr.id}@${cr.revision}`;
      if (this.#approved.has(key)) continue;
      await api.changeRequests.submitReview(
        space,
        cr.id,
        { status: 'approved', comment: { markdown: 'Looks good to me. (the demo reviewer)' } },
        { signal },
      );
      this.#approved.add(key);
      log.info(
        { cr: cr.id, number: cr.number, revision: cr.revision },
        'demo reviewer approved a change request',
      );
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#stop.abort();
    await this.#round.catch(() => undefined);
  }
}
