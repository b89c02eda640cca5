// An OpenAPI document in a local file. It is read in full each time (hashing it is cheaper than
// trusting a modification time); `$ref`s may name files in its folder and below only, symbolic
// links included, so a document cannot make docsync upload a file from elsewhere on the machine.
import { open, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { OpenApiSourceError } from './openapi-source-error.js';
import type { OpenApiSourceReader, SourceLimits, SourceRead } from './openapi-source-reader.js';
import { tooLarge } from './url-source-reader.js';

export class FileSourceReader implements OpenApiSourceReader {
  readonly location: string;
  readonly label: string;
  readonly #path: string;
  readonly #limits: SourceLimits;

  constructor(path: string, cwd: string, limits: SourceLimits) {
    this.#path = resolve(cwd, path);
    this.location = pathToFileURL(this.#path).href;
    this.label = path;
    this.#limits = limits;
  }

  async read(): Promise<SourceRead> {
    return { kind: 'read', bytes: await this.#readFile(this.#path, this.label), validators: {} };
  }

  async readRef(location: string): Promise<Buffer> {
    const url = new URL(location);
    const path = url.protocol === 'file:' ? fileURLToPath(url) : undefined;
    const shown = path === undefined ? location : relative(dirname(this.#path), path) || path;
    if (path === undefined) {
      throw new OpenApiSourceError(
        'SOURCE_REFUSED',
        `${this.label}: a $ref names ${location}; a local document may only refer to files in its folder`,
      );
    }
    const root = await realpath(dirname(this.#path));
    const real = await realpath(path).catch(() => path);
    const inside = relative(root, real);
    if (inside === '' || inside.startsWith(`..${sep}`) || inside === '..' || isAbsolute(inside)) {
      throw new OpenApiSourceError(
        'SOURCE_REFUSED',
        `${this.label}: a $ref names ${shown}, outside the folder of the document; move it below ${dirname(this.label)}`,
      );
    }
    return this.#readFile(real, shown);
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
