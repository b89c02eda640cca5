// What docsync remembers of a repository's push webhooks: when the last one arrived and when the
// repository was last looked at. While its webhooks arrive, its scheduled polls only look every
// `hooks.safetyPoll` (jobs/poll-git/): the webhook says when to look. A commit that such a look
// finds, which no webhook announced, makes docsync forget the hook and poll every `git.poll` again.
// A cache like the rest: lost with Redis, polls go back to `git.poll` until the next push.

/** Times in ms since the epoch. */
export interface RepositoryHooks {
  /** When the last push webhook for the repository arrived; undefined: none, or forgotten. */
  hookAt?: number;
  /** When docsync last looked at the repository while it was hooked. */
  lookAt?: number;
}

export interface RepositoryHookStore {
  get(repo: string): Promise<RepositoryHooks>;
  /** A push webhook arrived, and the poll it asked for looked. */
  hooked(repo: string, at: number): Promise<void>;
  /** A scheduled poll looked at a hooked repository. */
  looked(repo: string, at: number): Promise<void>;
  /** A webhook missed a push: the repository is polled every `git.poll` again. */
  forget(repo: string): Promise<void>;
}
