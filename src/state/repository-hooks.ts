// What docsync remembers of a repository's push webhooks: when the last one arrived, and when each
// of its poll intervals' schedulers last looked at it. While its webhooks arrive, its scheduled
// polls only look every `hooks.safetyPoll` (jobs/poll-git/): the webhook says when to look. A commit
// that such a look finds, which no webhook announced, makes docsync forget the hook and poll every
// `git.poll` again. A cache like the rest: lost with Redis, polls go back to `git.poll` until the
// next push.

/** Times in ms since the epoch. */
export interface RepositoryHooks {
  /** When the last push webhook for the repository arrived; undefined: none, or forgotten. */
  hookAt?: number;
  /** When the scheduler of the asked interval last looked at the repository while it was hooked. */
  lookAt?: number;
}

export interface RepositoryHookStore {
  /** The hook, and the last look of the scheduler polling every `every` ms. */
  get(repo: string, every: number): Promise<RepositoryHooks>;
  /** A push webhook for the repository arrived. */
  hooked(repo: string, at: number): Promise<void>;
  /** The scheduler polling every `every` ms looked at the hooked repository (nothing once forgotten). */
  looked(repo: string, every: number, at: number): Promise<void>;
  /** A webhook missed a push: the repository is polled every `git.poll` again. */
  forget(repo: string): Promise<void>;
}
