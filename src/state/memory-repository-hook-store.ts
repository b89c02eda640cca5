// The push webhooks of repositories in this process's memory (`docsync once`, tests, benchmarks).
import type { RepositoryHookStore, RepositoryHooks } from './repository-hooks.js';

export class MemoryRepositoryHookStore implements RepositoryHookStore {
  readonly #hooks = new Map<string, RepositoryHooks>();

  async get(repo: string): Promise<RepositoryHooks> {
    return { ...this.#hooks.get(repo) };
  }

  async hooked(repo: string, at: number): Promise<void> {
    this.#hooks.set(repo, { hookAt: at, lookAt: at });
  }

  async looked(repo: string, at: number): Promise<void> {
    const hooks = this.#hooks.get(repo);
    if (hooks !== undefined) this.#hooks.set(repo, { ...hooks, lookAt: at });
  }

  async forget(repo: string): Promise<void> {
    this.#hooks.delete(repo);
  }
}
