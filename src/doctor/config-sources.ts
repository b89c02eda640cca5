// Where a value of the configuration comes from, for hints: `DOCSYNC_TOKEN (service.token)` when the
// file reads `token: ${DOCSYNC_TOKEN}`, so a user fixes the variable rather than hunting for the key.
// Read from the file's own text (the loaded configuration has the variables already replaced).
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';

const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-[^}]*)?\}/g;

export type NameSource = (path: readonly (string | number)[]) => string;

/** Names keys for hints; `readConfigSources` knows which of them come from variables. */
export function nameSource(raw: unknown): NameSource {
  return (path) => {
    const key = keyPath(path);
    const value = valueAt(raw, path);
    if (typeof value !== 'string') return key;
    const names = [...value.matchAll(VARIABLE)].map((match) => match[1]);
    return names.length === 0 ? key : `${names.join(', ')} (${key})`;
  };
}

/** The sources of the values of `file`; plain key paths when the file cannot be read again. */
export async function readConfigSources(file: string): Promise<NameSource> {
  try {
    return nameSource(parse(await readFile(file, 'utf8')));
  } catch {
    return nameSource(undefined);
  }
}

/** `mappings[0].git.branch`, as the configuration's own problems name keys. */
export function keyPath(path: readonly (string | number)[]): string {
  return path
    .map((part, i) => (typeof part === 'number' ? `[${part}]` : i === 0 ? part : `.${part}`))
    .join('');
}

function valueAt(raw: unknown, path: readonly (string | number)[]): unknown {
  let at = raw;
  for (const part of path) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<string | number, unknown>)[part];
  }
  return at;
}
