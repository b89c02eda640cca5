// Where an OpenAPI spec of the configuration is read from (`openapi[].source`): an http(s) URL, a
// file of a mapped repository, or a local file, with the folder its `$ref`s may reach. The readers
// of this folder read each kind (url-, git- and file-source-reader.ts); the configuration composes
// this schema into a spec's and reports a `root` that does not hold the spec at `source.root`.
import { isAbsolute, relative, sep } from 'node:path';
import { z } from 'zod';
import { normalRepositoryPath } from '../git/normal-repository-path.js';

const sourceUrl = z.string().superRefine((value, ctx) => {
  const message = sourceUrlProblem(value);
  if (message !== undefined) ctx.addIssue({ code: 'custom', message });
});

/**
 * `root`: the folder the spec's `$ref`s may reach, relative to the same place as the spec's own
 * path (the folder docsync runs in for `file`, the repository root for `path`). Without it, a
 * local file's `$ref`s stay in its own folder and a repository file's in the repository.
 */
const root = z.string().min(1).optional();

export const openapiSourceSchema = z.union(
  [
    sourceUrl,
    z.strictObject({ mapping: z.string().min(1), path: z.string().min(1), root }),
    z.strictObject({ file: z.string().min(1), root }),
  ],
  {
    error:
      'give an http(s) URL, { mapping, path } for a file of a mapped repository, or { file } for a local path',
  },
);

export type OpenApiSource = z.output<typeof openapiSourceSchema>;

/** Why the source's `root` cannot be its `$ref`s' folder, if it cannot: it must hold the spec, in the repository. */
export function sourceRootProblem(source: OpenApiSource): string | undefined {
  if (typeof source !== 'object' || source.root === undefined) return undefined;
  return 'file' in source
    ? fileRootProblem(source.file, source.root)
    : repositoryRootProblem(source.path, source.root);
}

function sourceUrlProblem(value: string): string | undefined {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  // `C:` would be a Windows drive rather than a scheme.
  if (url === undefined || /^[a-z]:$/i.test(url.protocol)) {
    if (/^https?:/i.test(value)) return `"${value}" is not a valid http(s) URL`;
    return `"${value}" is not a URL: for a local file write source: { file: ${value} }, for a file of a mapped repository source: { mapping: <name>, path: ${value} }`;
  }
  if (url.protocol === 'file:')
    return 'a source URL must be http(s): for a local file write source: { file: <path> }';
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'a source URL must be http(s)';
  return undefined;
}

/** Whether `root` holds `file`, both as written; mixed absolute and relative paths are checked on reading. */
function fileRootProblem(file: string, rootDir: string): string | undefined {
  if (isAbsolute(file) !== isAbsolute(rootDir) || folderHolds(rootDir, file)) return undefined;
  return `"${rootDir}" does not contain the spec's file ${file}: give a folder that holds it and the files its $refs name, such as root: .`;
}

/** Whether `file` is below `folder`, both relative to the same place or both absolute. */
export function folderHolds(folder: string, file: string): boolean {
  const inside = relative(folder, file);
  return inside !== '' && inside !== '..' && !inside.startsWith(`..${sep}`) && !isAbsolute(inside);
}

function repositoryRootProblem(path: string, rootDir: string): string | undefined {
  const folder = normalRepositoryPath(rootDir);
  if (folder === '..' || folder.startsWith('../'))
    return `"${rootDir}" leaves the repository: give a folder of the repository, such as root: . (all of it) or root: api`;
  const file = normalRepositoryPath(path);
  if (folder === '' || file.startsWith(`${folder}/`)) return undefined;
  return `"${rootDir}" does not contain the spec's path ${path}: give a folder that holds it, such as root: .`;
}
