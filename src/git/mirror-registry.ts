// One bare mirror per repository under the data folder, shared by every mapping of that
// repository: fetched once per poll however many mappings read it, with that repository's
// credentials (`git.auth`, built once for all of its mappings).
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Logger } from '../log/create-logger.js';
import { GitMirror } from './git-mirror.js';
import type { RepoCredentials } from './repo-credentials.js';

export class MirrorRegistry {
  readonly #dir: string;
  readonly #log: Logger;
  readonly #env: NodeJS.ProcessEnv;
  readonly #credentials: RepoCredentials;
  readonly #mirrors = new Map<string, GitMirror>();

  constructor(options: {
    dataDir: string;
    log: Logger;
    env?: NodeJS.ProcessEnv;
    /** Each repository's credentials (src/git/repo-credentials.ts); git's own environment for the others. */
    credentials?: RepoCredentials;
  }) {
    this.#dir = join(options.dataDir, 'git');
    this.#log = options.log;
    this.#env = options.env ?? process.env;
    this.#credentials = options.credentials ?? (() => undefined);
  }

  mirrorFor = (repo: string): GitMirror => {
    let mirror = this.#mirrors.get(repo);
    if (mirror === undefined) {
      const name = createHash('sha256').update(repo).digest('hex').slice(0, 16);
      mirror = new GitMirror({
        repo,
        dir: join(this.#dir, `${name}.git`),
        log: this.#log,
        env: this.#env,
        credentials: this.#credentials(repo),
      });
      this.#mirrors.set(repo, mirror);
    }
    return mirror;
  };
}
