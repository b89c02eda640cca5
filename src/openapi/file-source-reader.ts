// An OpenAPI document in a local file. It is read in full each time (hashing it is cheaper than
// trusting a modification time); `$ref`s may name files in its folder and below only, or below
// `source.root` when given, symbolic links included, so a document cannot make docsync upload a
// file from elsewhere on the machine.
import { open, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { OpenApiSourceError } from './openapi-source-error.js';
import type { OpenApiSourceReader, SourceLimits, SourceRead } from './openapi-source-types.js';
import { tooLarge } from './url-source-reader.js';

export class FileSourceReader implements OpenApiSourceReader {
  readonly location: string;
  readonly label: string;
  readonly #path: string;
  /** The folder `$ref`s may reach, as configured (absolute); undefined for the document's folder. */
  readonly #root: string | undefined;
  readonly #limits: SourceLimits;

  constructor(source: { file: string; root?: string | undefined }, cwd: string, limits: SourceLimits) {
    this.#path = resolve(cwd, source.file);
    this.#root = source.root === undefined ? undefined : resolve(cwd, source.root);
    this.location = pathToFileURL(this.#path).href;
    this.label = source.file;
    this.#limits = limits;
  }

  async read(): Promise<SourceRead> {
    if (this.#root !== undefined) {
      const real = await realpath(this.#path).catch(() => this.#path);
      if (!isInside(await this.#realRoot(), real)) {
        throw new OpenApiSourceError(
          'SOURCE_REFUSED',
          `${this.label} is not inside source.root ${this.#root}: give a root folder that holds the spec`,
          { setting: 'root' },
        );
      }
    }
    return { kind: 'read', bytes: await this.#readFile(this.#path, this.label), validators: {} };
  }

  async readRef(location: string): Promise<Buffer> {
    const url = new URL(location);
    const path = url.protocol === 'file:' ? fileURLToPath(url) : undefined;
    if (path === undefined) {
      throw new OpenApiSourceError(
        'SOURCE_REFUSED',
        `${this.label}: a $ref names ${location}; a local document may only refer to local files`,
      );
    }
    const shown = relative(dirname(this.#path), path) || path;
    const real = await realpath(path).catch(() => path);
    if (!isInside(await this.#realRoot(), real)) {
      const fix = `set source.root to a folder that holds both (root: . for the folder docsync runs in), or move ${shown} below`;
      throw new OpenApiSourceError(
        'SOURCE_REFUSED',
        this.#root === undefined
          ? `${this.label}: a $ref names ${shown}, outside the folder of the document; ${fix} ${dirname(this.label)}`
          : `${this.label}: a $ref names ${shown}, outside source.root ${this.#root}; ${fix} ${this.#root}`,
        { setting: 'root' },
      );
    }
    return this.#readFile(real, shown);
  }

  async #realRoot(): Promise<string> {
    const root = this.#root ?? dirname(this.#path);
    try {
      return await realpath(root);
    } catch (error) {
      throw new OpenApiSourceError(
        'SOURCE_NOT_FOUND',
        `${this.#root === undefined ? 'the folder of' : 'source.root of'} ${this.label} (${root}) does not exist: check the path`,
        { cause: error },
      );
    }
  }

  async #readFile(path: string, label: string): Promise<Buffer> {
    const { maxBytes } = this.#limits;
    let file: Awaited<ReturnType<typeof open>>;
    try {
      file = await open(path, 'r');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR')
        throw new OpenApiSourceError('SOURCE_NOT_FOUND', `${label} does not exist: check the path`);
      throw new OpenApiSourceError('SOURCE_UNREACHABLE', `${label} could not be read (${code ?? 'error'})`, {
        cause: error,
      });
    }
    try {
      const stat = await file.stat();
      if (!stat.isFile()) throw new OpenApiSourceError('SOURCE_NOT_FOUND', `${label} is not a file`);
      if (stat.size > maxBytes) throw tooLarge(label, maxBytes);
      // Read one byte more than allowed: a file that grew since stat is still caught.
      const buffer = Buffer.alloc(Math.min(stat.size, maxBytes) + 1);
      const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
      if (bytesRead > maxBytes) throw tooLarge(label, maxBytes);
      return buffer.subarray(0, bytesRead);
    } finally {
      await file.close();
    }
  }
}

/** Whether `path` is strictly below `folder` (both real paths). */
function isInside(folder: string, path: string): boolean {
  const inside = relative(folder, path);
  return inside !== '' && inside !== '..' && !inside.startsWith(`..${sep}`) && !isAbsolute(inside);
}
