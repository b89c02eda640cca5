// Reads a `.gitbook.yaml`: which folder below the mapped one holds the docs (`root`) and which files
// are its first page and its summary (`structure.readme`, `structure.summary`, relative to the root).
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { formatZodPath } from '../errors/format-zod-path.js';
import { ContentError } from './content-error.js';
import { safeRelativePath } from './safe-relative-path.js';

export interface GitbookLayout {
  /** The docs root, relative to the folder holding `.gitbook.yaml`, normalised; `.` for that folder. */
  root: string;
  /** The first page, relative to the root, normalised: `README.md` by default. */
  readme: string;
  /** The summary, relative to the root, normalised: `SUMMARY.md` by default. */
  summary: string;
}

export const GITBOOK_FILE = '.gitbook.yaml';

export const DEFAULT_GITBOOK_LAYOUT: Readonly<GitbookLayout> = Object.freeze({
  root: '.',
  readme: 'README.md',
  summary: 'SUMMARY.md',
});

const MARKDOWN = /\.md$/i;

// Other keys (`redirects`, GitBook's own additions) are allowed and ignored.
const gitbookSchema = z
  .looseObject({
    root: z.string().nullish(),
    structure: z
      .looseObject({
        readme: z.string().nullish(),
        summary: z.string().nullish(),
      })
      .nullish(),
  })
  .nullish();

/**
 * The layout `yamlText` describes, defaults filled in; the defaults when there is no file. An
 * unreadable file, a key of the wrong type, a path leaving its folder (see safeRelativePath) and a
 * readme or summary that is not a `.md` file are CONTENT_INVALID errors naming the key.
 */
export function readGitbookLayout(yamlText: string | undefined): GitbookLayout {
  if (yamlText === undefined) return { ...DEFAULT_GITBOOK_LAYOUT };
  let document: unknown;
  try {
    document = parseYaml(yamlText, { schema: 'core', uniqueKeys: true, maxAliasCount: 10 });
  } catch (error) {
    throw invalid('', 'is not valid YAML', error);
  }
  const parsed = gitbookSchema.safeParse(document);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalid(formatZodPath(issue?.path ?? []), issue?.message ?? 'is invalid', parsed.error);
  }
  const root = parsed.data?.root;
  const structure = parsed.data?.structure;
  return {
    root: root === undefined || root === null ? DEFAULT_GITBOOK_LAYOUT.root : rootPath(root),
    readme: markdownPath('structure.readme', structure?.readme ?? DEFAULT_GITBOOK_LAYOUT.readme),
    summary: markdownPath('structure.summary', structure?.summary ?? DEFAULT_GITBOOK_LAYOUT.summary),
  };
}

/** `root` normalised; `./`, `.` and `` name the folder of `.gitbook.yaml` itself. */
function rootPath(root: string): string {
  if (
    root
      .replaceAll('\\', '/')
      .split('/')
      .every((segment) => segment === '' || segment === '.')
  ) {
    return '.';
  }
  return checkedPath('root', root);
}

function markdownPath(key: string, raw: string): string {
  const path = checkedPath(key, raw);
  if (!MARKDOWN.test(path)) throw invalid(key, `must name a .md file, not ${path}`);
  return path;
}

function checkedPath(key: string, raw: string): string {
  try {
    return safeRelativePath(raw, { subject: 'path', root: 'folder of .gitbook.yaml' });
  } catch (error) {
    const reason = error instanceof ContentError ? error.message : 'is not a usable path';
    throw invalid(key, reason, error);
  }
}

function invalid(key: string, reason: string, cause?: unknown): ContentError {
  const subject = key === '' ? GITBOOK_FILE : `${GITBOOK_FILE} ${key}`;
  return new ContentError('CONTENT_INVALID', `${subject} ${reason}`, {
    path: GITBOOK_FILE,
    ...(cause === undefined ? {} : { cause }),
  });
}
