// Counts the requests the local service received, by method and route pattern
// (`GET /v1/spaces/:s`), so tests can assert how many calls a client made.
export class RequestCounter {
  #counts = new Map<string, number>();
  #total = 0;

  count(method: string, route: string): void {
    const key = `${method} ${route}`;
    this.#counts.set(key, (this.#counts.get(key) ?? 0) + 1);
    this.#total += 1;
  }

  snapshot(): { total: number; counts: Record<string, number> } {
    return {
      total: this.#total,
      counts: Object.fromEntries([...this.#counts.entries()].sort(([a], [b]) => a.localeCompare(b))),
    };
  }

  reset(): void {
    this.#counts.clear();
    this.#total = 0;
  }
}
