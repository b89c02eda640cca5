// The `.gitbook.yaml` at the top of an imported folder, as the service's git sync reads it: `root`
// (the folder below holding the docs), `structure.readme` (the first page) and `structure.summary`,
// the last two relative to the root. Other keys (`redirects`) are allowed and not used here.
import { parse } from 'yaml';
import { z } from 'zod';
import { formatZodPath } from '../../errors/format-zod-path.js';
import { folderPath } from './folder-path.js';
import { ImportRefusedError } from './import-refused-error.js';

export interface GitbookConfig {
  /** The docs root's path in the archive, normalised; '' for the archive's top. */
  root: string;
  /** The first page, relative to the root. */
  readme: string;
  /** The summary, relative to the root. */
  summary: string;
}

export const GITBOOK_CONFIG_FILE = '.gitbook.yaml';
export const DEFAULT_README = 'README.md';
const DEFAULT_SUMMARY = 'SUMMARY.md';
const MARKDOWN = /\.md$/i;

const configSchema = z
  .looseObject({
    root: z.string().nullish(),
    structure: z.looseObject({ readme: z.string().nullish(), summary: z.string().nullish() }).nullish(),
  })
  .nullish();

/**
 * The configuration `text` holds; the defaults when there is no file. Refused (CONTENT_INVALID,
 * naming the key): text that is not YAML, a key of the wrong type, a path leaving the folder, a
 * readme or summary that is not a `.md` file.
 */
export function readGitbookConfig(text: string | undefined): GitbookConfig {
  if (text === undefined) return { root: '', readme: DEFAULT_README, summary: DEFAULT_SUMMARY };
  let document: unknown;
  try {
    document = parse(text, { schema: 'core', uniqueKeys: true, maxAliasCount: 10 });
  } catch (error) {
    throw invalid('', 'is not valid YAML: fix its syntax', error);
  }
  const parsed = configSchema.safeParse(document);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalid(formatZodPath(issue?.path ?? []), issue?.message ?? 'is invalid', parsed.error);
  }
  const root = parsed.data?.root ?? '';
  const structure = parsed.data?.structure;
  return {
    root: isTop(root) ? '' : checkedPath('root', root),
    readme: markdownPath('structure.readme', structure?.readme ?? DEFAULT_README),
    summary: markdownPath('structure.summary', structure?.summary ?? DEFAULT_SUMMARY),
  };
}

/** `''`, `.`, `./`: the folder of `.gitbook.yaml` itself. */
function isTop(root: string): boolean {
  return root.split(/[/\\]/).every((segment) => segment === '' || segment === '.');
}

function markdownPath(key: string, raw: string): string {
  const path = checkedPath(key, raw);
  if (!MARKDOWN.test(path)) throw invalid(key, `must name a .md file, not ${path}`);
  return path;
}

function checkedPath(key: string, raw: string): string {
  const checked = folderPath(raw);
  if (!checked.ok) throw invalid(key, `${raw} ${checked.reason}`);
  return checked.path;
}

function invalid(key: string, reason: string, cause?: unknown): ImportRefusedError {
  const subject = key === '' ? GITBOOK_CONFIG_FILE : `${GITBOOK_CONFIG_FILE} ${key}`;
  return new ImportRefusedError('CONTENT_INVALID', `${subject} ${reason}`, {
    path: GITBOOK_CONFIG_FILE,
    ...(cause === undefined ? {} : { cause }),
  });
}
