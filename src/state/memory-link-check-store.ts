// Link checks in memory, for `docsync once`, tests and benchmarks: the Redis store's contract
// without Redis. Records are copied in and out, as a round trip through Redis would.
import {
  type CheckedRevision,
  checkedRevisionOf,
  type LinkCheck,
  type LinkCheckStore,
  type LinkCheckSummary,
  summaryOfLinkCheck,
} from './link-check-store.js';

export class MemoryLinkCheckStore implements LinkCheckStore {
  readonly #checks = new Map<string, LinkCheck>();

  async get(space: string, changeRequest: string | undefined): Promise<LinkCheck | undefined> {
    const check = this.#checks.get(keyOf(space, changeRequest));
    return check === undefined ? undefined : structuredClone(check);
  }

  async checkedRevisions(
    space: string,
    changeRequests: readonly (string | undefined)[],
  ): Promise<(CheckedRevision | undefined)[]> {
    return changeRequests.map((changeRequest) => {
      const check = this.#checks.get(keyOf(space, changeRequest));
      return check === undefined ? undefined : checkedRevisionOf(check);
    });
  }

  async summary(space: string, changeRequest: string | undefined): Promise<LinkCheckSummary | undefined> {
    const check = this.#checks.get(keyOf(space, changeRequest));
    return check === undefined ? undefined : summaryOfLinkCheck(check);
  }

  async set(space: string, changeRequest: string | undefined, check: LinkCheck): Promise<void> {
    this.#checks.set(keyOf(space, changeRequest), structuredClone(check));
  }
}

function keyOf(space: string, changeRequest: string | undefined): string {
  return `${space}\0${changeRequest ?? 'main'}`;
}
