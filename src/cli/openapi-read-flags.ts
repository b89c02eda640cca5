// The flags `docsync openapi validate|diff|upload` share with a spec of the configuration: the
// limits a refresh reads within (`--max-bytes`, `--max-ref-files`) and the folder its `$ref`s may
// reach (`--root`), checked as the configuration checks its keys, and the hint of a failed read
// naming the flag to change rather than the configuration's key.
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseByteSize } from '../config/byte-size.js';
import { MAX_REF_FILES_LIMIT, type OpenApiConfig } from '../config/openapi-schema.js';
import { DocsyncError } from '../errors/docsync-error.js';
import { normalRepositoryPath } from '../git/normal-repository-path.js';
import { redactUrlCredentials } from '../log/redact-url-credentials.js';
import { OpenApiSourceError, type SourceSetting } from '../openapi/openapi-source-error.js';
import { folderHolds } from '../openapi/openapi-source-schema.js';
import {
  ARGUMENT_LIMITS,
  type ArgumentLimits,
  type ArgumentRead,
  readOpenApiArgument,
} from '../openapi/read-openapi-argument.js';
import type { CliIo } from './cli-io.js';

export interface OpenApiReadFlags {
  json?: boolean;
  /** The largest document (with its `$ref`d files) read: `10MiB`, as a spec's `maxBytes`. */
  maxBytes?: string;
  /** The most files the `$ref`s may name, as a spec's `maxRefFiles`. */
  maxRefFiles?: string;
  /** The folder a local document's `$ref`s may reach, as a spec's `source.root`. */
  root?: string;
}

/** Each setting's flag, for hints on the command line. */
const FLAGS: Record<SourceSetting, string> = {
  maxBytes: '--max-bytes',
  maxRefFiles: '--max-ref-files',
  root: '--root',
};

/** `--max-ref-files` as a number, or why it is not one (as the configuration's maxRefFiles). */
export function parseMaxRefFiles(value: string): number | string {
  const count = /^\d+$/.test(value) ? Number(value) : undefined;
  if (count === undefined) return `--max-ref-files ${value} is not a whole number of files, such as 500`;
  if (count > MAX_REF_FILES_LIMIT)
    return `--max-ref-files ${value} is more than ${MAX_REF_FILES_LIMIT}: more files than that is a loop of $refs rather than a spec`;
  return count;
}

/**
 * The limits of the flags, or undefined (with a line on stderr) when one is wrong: a size that is
 * not one, a count that is not one, a `--root` that is not a folder or does not hold a local
 * `argument` (or that is given for an address, whose `$ref`s stay on its origin).
 */
export async function argumentLimits(
  flags: OpenApiReadFlags,
  io: CliIo,
  command: string,
  documents: readonly string[],
): Promise<ArgumentLimits | undefined> {
  const wrong = (message: string) => {
    io.stderr.write(`docsync openapi ${command}: ${message}\n`);
    return undefined;
  };
  const limits: ArgumentLimits = { ...ARGUMENT_LIMITS };
  if (flags.maxBytes !== undefined) {
    const maxBytes = parseByteSize(flags.maxBytes);
    if (maxBytes === undefined || maxBytes < 1)
      return wrong(`--max-bytes ${flags.maxBytes} is not a size, such as 20MiB or 20000000`);
    limits.maxBytes = maxBytes;
  }
  if (flags.maxRefFiles !== undefined) {
    const maxRefFiles = parseMaxRefFiles(flags.maxRefFiles);
    if (typeof maxRefFiles === 'string') return wrong(maxRefFiles);
    limits.maxRefFiles = maxRefFiles;
  }
  if (flags.root === undefined) return limits;
  const problem = await localRootProblem(flags.root, documents, io.cwd);
  return problem === undefined ? { ...limits, root: flags.root } : wrong(problem);
}

async function localRootProblem(
  root: string,
  files: readonly string[],
  cwd: string,
): Promise<string | undefined> {
  const folder = resolve(cwd, root);
  const isFolder = await stat(folder).then(
    (found) => found.isDirectory(),
    () => false,
  );
  if (!isFolder)
    return `--root ${root} is not a folder: give the folder that holds the document and its $ref files`;
  for (const file of files) {
    if (/^https?:\/\//i.test(file))
      return `--root is for a local file: the $refs of ${redactUrlCredentials(file)} may only reach its own origin`;
    if (!folderHolds(folder, resolve(cwd, file)))
      return `--root ${root} does not contain ${file}: give a folder that holds it and the files its $refs name, such as --root .`;
  }
  return undefined;
}

/**
 * A spec's source with `--root` in place of its own root, or why it cannot take one: as the
 * configuration's `source.root`, a folder holding a local file, or a repository folder holding the path.
 */
export function withRoot(
  source: OpenApiConfig['source'],
  root: string,
  cwd: string,
): OpenApiConfig['source'] | string {
  if (typeof source === 'string') return `--root is for a file source; ${source} is an address`;
  if ('file' in source)
    return folderHolds(resolve(cwd, root), resolve(cwd, source.file))
      ? { ...source, root }
      : `--root ${root} does not contain the spec's file ${source.file}: give a folder that holds it, such as --root .`;
  const folder = normalRepositoryPath(root);
  if (folder === '..' || folder.startsWith('../'))
    return `--root ${root} leaves the repository: give a folder of the repository, such as --root .`;
  return folder === '' || normalRepositoryPath(source.path).startsWith(`${folder}/`)
    ? { ...source, root }
    : `--root ${root} does not contain the spec's path ${source.path}: give a folder that holds it, such as --root .`;
}

/**
 * ` (on the command line: --max-ref-files)`: the flag that lets a refused read through, when the
 * command has it (`upload` takes no `--max-bytes`: the spec's maxBytes, named in the message, is).
 */
export function flagHint(
  error: DocsyncError,
  settings: readonly SourceSetting[] = ['maxBytes', 'maxRefFiles', 'root'],
): string {
  const setting = error instanceof OpenApiSourceError ? error.setting : undefined;
  return setting === undefined || !settings.includes(setting)
    ? ''
    : ` (on the command line: ${FLAGS[setting]})`;
}

/** The document read and validated; undefined, with why on stderr, when it cannot be read. */
export async function readArgument(
  argument: string,
  limits: ArgumentLimits,
  io: CliIo,
  command: string,
): Promise<ArgumentRead | undefined> {
  try {
    return await readOpenApiArgument(argument, io.cwd, limits, AbortSignal.timeout(10 * 60 * 1000));
  } catch (error) {
    if (!(error instanceof DocsyncError)) throw error;
    io.stderr.write(
      `docsync openapi ${command}: ${redactUrlCredentials(error.message)}${flagHint(error)} [${error.code}]\n`,
    );
    return undefined;
  }
}

/** The spec of the configuration with `--root` and `--max-ref-files` in place of its own, or why not. */
export function specWithFlags(
  spec: OpenApiConfig,
  flags: Pick<OpenApiReadFlags, 'maxRefFiles' | 'root'>,
  cwd: string,
): OpenApiConfig | string {
  let result = spec;
  if (flags.maxRefFiles !== undefined) {
    const maxRefFiles = parseMaxRefFiles(flags.maxRefFiles);
    if (typeof maxRefFiles === 'string') return maxRefFiles;
    result = { ...result, maxRefFiles };
  }
  if (flags.root !== undefined) {
    const source = withRoot(spec.source, flags.root, cwd);
    if (typeof source === 'string') return source;
    result = { ...result, source };
  }
  return result;
}
