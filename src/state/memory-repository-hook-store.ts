// The push webhooks of repositories in this process's memory (`docsync once`, tests, benchmarks).
import type { RepositoryHookStore, RepositoryHooks } from './repository-hooks.js';

interface Kept {
  hookAt: number;
  lookAt: Map<number, number>;
}

export class MemoryRepositoryHookStore implements RepositoryHookStore {
  readonly #hooks = new Map<string, Kept>();

  async get(repo: string, every: number): Promise<RepositoryHooks> {
    const kept = this.#hooks.get(repo);
    if (kept === undefined) return {};
    const lookAt = kept.lookAt.get(every);
    return lookAt === undefined ? { hookAt: kept.hookAt } : { hookAt: kept.hookAt, lookAt };
  }

  async hooked(repo: string, at: number): Promise<void> {
    const kept = this.#hooks.get(repo);
    if (kept === undefined) this.#hooks.set(repo, { hookAt: at, lookAt: new Map() });
    else kept.hookAt = at;
  }

  async looked(repo: string, every: number, at: number): Promise<void> {
    this.#hooks.get(repo)?.lookAt.set(every, at);
  }

  async forget(repo: string): Promise<void> {
    this.#hooks.delete(repo);
  }
}
