// An OpenAPI document in a mapped repository, read from docsync's mirror at the tip of the
// mapping's branch. The blob id is its validator: the same id is the same bytes. `$ref`s name
// other files of the repository at the same commit; they cannot leave the repository, nor
// `source.root` when it is given.
import { DocsyncError } from '../errors/docsync-error.js';
import type { GitMirror } from '../git/git-mirror.js';
import { normalRepositoryPath } from '../git/normal-repository-path.js';
import { OpenApiSourceError } from './openapi-source-error.js';
import type {
  OpenApiSourceReader,
  SourceLimits,
  SourceRead,
  SourceValidators,
} from './openapi-source-types.js';
import { tooLarge } from './url-source-reader.js';

/** The host of the URLs that name files of the repository, for `$ref` resolution. */
const GIT_ORIGIN = 'git://repository';

export class GitSourceReader implements OpenApiSourceReader {
  readonly location: string;
  readonly label: string;
  readonly #mapping: { name: string; git: { branch: string } };
  readonly #path: string;
  /** The folder `$ref`s may reach: `''` for the whole repository. */
  readonly #root: string;
  readonly #mirror: GitMirror;
  readonly #limits: SourceLimits;
  /** The commit the last read came from: `$ref`s are read at the same one. */
  #commit: string | undefined;

  constructor(
    mapping: { name: string; git: { branch: string } },
    source: { path: string; root?: string | undefined },
    mirror: GitMirror,
    limits: SourceLimits,
  ) {
    this.#mapping = mapping;
    this.#path = normalRepositoryPath(source.path);
    this.#root = source.root === undefined ? '' : normalRepositoryPath(source.root);
    this.location = `${GIT_ORIGIN}/${this.#path.split('/').map(encodeURIComponent).join('/')}`;
    this.label = `${this.#path} (mapping ${mapping.name})`;
    this.#mirror = mirror;
    this.#limits = limits;
  }

  async read(previous: SourceValidators | undefined, signal: AbortSignal): Promise<SourceRead> {
    await this.#mirror.fetch(signal);
    const commit = await this.#mirror.resolve(this.#mapping.git.branch, signal);
    if (commit === undefined) {
      throw new DocsyncError(
        'BRANCH_NOT_FOUND',
        `branch ${this.#mapping.git.branch} does not exist in the repository of mapping ${this.#mapping.name}`,
      );
    }
    this.#commit = commit;
    const blob = await this.#mirror.blob(commit, this.#path, signal);
    if (previous?.blob !== undefined && previous.blob === blob?.oid) return { kind: 'not-modified' };
    const bytes = await this.#readFile(this.#path, signal);
    return { kind: 'read', bytes, validators: blob === undefined ? {} : { blob: blob.oid } };
  }

  async readRef(location: string, signal: AbortSignal): Promise<Buffer> {
    const url = new URL(location);
    if (`${url.protocol}//${url.host}` !== GIT_ORIGIN) {
      throw new OpenApiSourceError(
        'SOURCE_REFUSED',
        `${this.label}: a $ref names ${location}; a document in a repository may only refer to files of the same repository`,
      );
    }
    // URL resolution has already taken `..` away: a path cannot climb above the repository root.
    const path = decodeURIComponent(url.pathname).replace(/^\/+/, '');
    if (this.#root !== '' && !path.startsWith(`${this.#root}/`)) {
      throw new OpenApiSourceError(
        'SOURCE_REFUSED',
        `${this.label}: a $ref names ${path}, outside source.root ${this.#root}; widen source.root (root: . is the whole repository) or move the file below ${this.#root}`,
        { setting: 'root' },
      );
    }
    return this.#readFile(path, signal);
  }

  async #readFile(path: string, signal: AbortSignal): Promise<Buffer> {
    if (this.#commit === undefined) throw new Error('read the document before its references');
    const blob = await this.#mirror.blob(this.#commit, path, signal);
    if (blob === undefined) throw this.#notFound(path);
    if (blob.size > this.#limits.maxBytes)
      throw tooLarge(`${path} (mapping ${this.#mapping.name})`, this.#limits.maxBytes);
    for await (const { data } of this.#mirror.readBlobs([blob.oid], signal)) return data;
    throw this.#notFound(path);
  }

  #notFound(path: string): OpenApiSourceError {
    return new OpenApiSourceError(
      'SOURCE_NOT_FOUND',
      `${path} is not a file on branch ${this.#mapping.git.branch} of mapping ${this.#mapping.name}: check the spec's source.path`,
    );
  }
}
