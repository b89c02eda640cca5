// docker-compose.yml as Compose reads it: the YAML, every string value interpolated from the host's
// environment (`${VAR}`, `${VAR:-default}`, `${VAR-default}`, `${VAR:+other}`, `${VAR:?message}`,
// `$VAR`, and `$$` for a literal `$`), and an environment entry without a value taken from the host
// or left out. Tests read the shipped file through it, so that they break when the file drifts.
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';

export interface ComposeService {
  image?: string;
  build?: string | { context?: string };
  command?: string[];
  entrypoint?: string[];
  /** After interpolation; entries without a value that the host does not set are left out. */
  environment: Record<string, string>;
  ports?: string[];
  expose?: string[];
  volumes?: string[];
  depends_on?: string[] | Record<string, { condition?: string }>;
  healthcheck?: { test?: string[] };
  stop_grace_period?: string;
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
}

type Env = Readonly<Record<string, string | undefined>>;

export async function readComposeFile(file: string, hostEnv: Env = {}): Promise<ComposeFile> {
  const raw = parse(await readFile(file, 'utf8')) as {
    services: Record<string, Record<string, unknown>>;
  };
  const services: Record<string, ComposeService> = {};
  for (const [name, service] of Object.entries(raw.services)) {
    const interpolated = interpolateTree(service, hostEnv) as Record<string, unknown>;
    services[name] = {
      ...(interpolated as Omit<ComposeService, 'environment'>),
      ...(typeof interpolated.command === 'string' ? { command: splitWords(interpolated.command) } : {}),
      environment: environmentOf(interpolated.environment, hostEnv),
    };
  }
  return { services };
}

/** Interpolates one string as Compose does. */
export function interpolateCompose(text: string, env: Env): string {
  return text.replace(
    /\$(?:\$|\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-+?])([^}]*))?\}|([A-Za-z_][A-Za-z0-9_]*))/g,
    (match, braced?: string, colon?: string, operator?: string, word?: string, bare?: string) => {
      if (match === '$$') return '$';
      const name = braced ?? bare ?? '';
      const value = env[name];
      // With the colon an empty value counts as unset, as in the shell.
      const set = colon === ':' ? value !== undefined && value !== '' : value !== undefined;
      if (operator === '-') return set ? (value as string) : (word ?? '');
      if (operator === '+') return set ? (word ?? '') : '';
      if (operator === '?') {
        if (!set) throw new Error(`docker-compose.yml needs ${name}: ${word ?? ''}`);
        return value as string;
      }
      return value ?? '';
    },
  );
}

function interpolateTree(value: unknown, env: Env): unknown {
  if (typeof value === 'string') return interpolateCompose(value, env);
  if (Array.isArray(value)) return value.map((item) => interpolateTree(item, env));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, interpolateTree(item, env)]));
  return value;
}

/** The map or the `NAME=value` list form; a name without a value comes from the host when it is set there. */
function environmentOf(value: unknown, hostEnv: Env): Record<string, string> {
  const entries: Array<[string, unknown]> = Array.isArray(value)
    ? (value as string[]).map((item) => {
        const equals = item.indexOf('=');
        return equals === -1 ? [item, null] : [item.slice(0, equals), item.slice(equals + 1)];
      })
    : Object.entries((value ?? {}) as Record<string, unknown>);
  const env: Record<string, string> = {};
  for (const [name, item] of entries) {
    const given = item === null || item === undefined ? hostEnv[name] : String(item);
    if (given !== undefined) env[name] = given;
  }
  return env;
}

function splitWords(command: string): string[] {
  return command.split(/\s+/).filter((word) => word !== '');
}
