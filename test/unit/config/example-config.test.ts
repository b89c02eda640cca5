import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { z } from 'zod';
import { configSchema } from '../../../src/config/config-schema.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { DEMO_CONFIG, PACKAGE_ROOT } from '../../../src/package-info.js';

const EXAMPLE = join(PACKAGE_ROOT, 'config', 'docsync.example.yaml');

/** Every key path the schema accepts, lists written as `[]`: `mappings[].git.branch`. */
function schemaKeys(schema: z.core.$ZodType, prefix = ''): string[] {
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  switch (def.type) {
    case 'optional':
    case 'default':
    case 'prefault':
    case 'nullable':
      return schemaKeys(def.innerType as z.core.$ZodType, prefix);
    case 'pipe':
      return [
        ...schemaKeys(def.in as z.core.$ZodType, prefix),
        ...schemaKeys(def.out as z.core.$ZodType, prefix),
      ];
    case 'array':
      return schemaKeys(def.element as z.core.$ZodType, `${prefix}[]`);
    case 'union':
      return (def.options as z.core.$ZodType[]).flatMap((option) => schemaKeys(option, prefix));
    case 'object':
      return Object.entries(def.shape as Record<string, z.core.$ZodType>).flatMap(([key, value]) => {
        const path = prefix === '' ? key : `${prefix}.${key}`;
        return [path, ...schemaKeys(value, path)];
      });
    default:
      return [];
  }
}

/** Every key path of a YAML document, including the keys of commented-out blocks. */
function documentedKeys(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((item) => documentedKeys(item, `${prefix}[]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, item]) => {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    return [path, ...documentedKeys(item, path)];
  });
}

describe('config/docsync.example.yaml', () => {
  it('is valid as shipped, with no environment set', async () => {
    const config = await loadConfig(EXAMPLE, {});
    expect(config.mappings.map((mapping) => mapping.name)).toEqual(['product-docs']);
    expect(config.redis.url).toBeUndefined();
  });

  it('documents every key the configuration accepts', async () => {
    const text = await readFile(EXAMPLE, 'utf8');
    // Commented-out alternatives (`# cluster:` ...) count as documented.
    const uncommented = text.replace(/^(\s*)# ?( *)([A-Za-z]\w*:(?: .*)?)$/gm, '$1$2$3');
    const documented = new Set([...documentedKeys(parse(text)), ...documentedKeys(parse(uncommented))]);
    const missing = [...new Set(schemaKeys(configSchema))].filter((key) => !documented.has(key));
    expect(missing).toEqual([]);
  });
});

describe('config/demo.yaml', () => {
  const DEMO_ENV = {
    DOCSYNC_DEMO_DIR: '/tmp/demo',
    DOCSYNC_DEMO_SERVICE_URL: 'http://127.0.0.1:4010/v1',
    DOCSYNC_DEMO_TOKEN: 'demo-token',
    DOCSYNC_DEMO_ORG: 'org_1',
    DOCSYNC_DEMO_SPACE: 'spc_1',
    DOCSYNC_DEMO_REPO: '/tmp/demo/repo',
  };

  it('is valid with what the demo sets, and uses the embedded Redis even when REDIS_URL is set', async () => {
    const config = await loadConfig(DEMO_CONFIG, { ...DEMO_ENV, REDIS_URL: 'redis://127.0.0.1:6379' });
    expect(config.redis.url).toBeUndefined();
    expect(config.http.listen).toEqual({ host: '127.0.0.1', port: 8787 });
    expect(config.mappings[0]).toMatchObject({
      space: 'spc_1',
      git: { repo: '/tmp/demo/repo', dir: 'docs', watch: { path: '/tmp/demo/repo' } },
      merge: { enabled: true, approvals: 1, noBrokenLinks: true },
    });
    expect(config.openapi[0]).toMatchObject({
      org: 'org_1',
      slug: 'pets',
      source: { mapping: 'demo-docs', path: 'openapi.yaml' },
    });
  });

  it('names the variable that is missing when given without the demo', async () => {
    await expect(loadConfig(DEMO_CONFIG, {})).rejects.toMatchObject({
      problems: expect.arrayContaining([
        expect.objectContaining({
          path: 'dataDir',
          message: expect.stringContaining('environment variable DOCSYNC_DEMO_DIR is not set'),
        }),
      ]),
    });
  });
});

describe('docker-compose.yml', () => {
  it('gives docsync an environment under which the example configuration is valid', async () => {
    const compose = parse(await readFile(join(PACKAGE_ROOT, 'docker-compose.yml'), 'utf8')) as {
      services: Record<string, { environment: Record<string, string | null>; command: string[] }>;
    };
    const docsync = compose.services.docsync;
    // Compose fills ${VAR:-default} from the host's environment; here, with nothing set.
    const env = Object.fromEntries(
      Object.entries(docsync?.environment ?? {}).flatMap(([key, value]) =>
        value === null ? [] : [[key, value.replace(/\$\{[A-Z_]+:-([^}]*)\}/g, '$1')]],
      ),
    );
    const config = await loadConfig(EXAMPLE, env);
    expect(config.redis.url).toBe('redis://redis:6379');
    expect(config.http.listen).toEqual({ host: '0.0.0.0', port: 8787 });
    expect(config.http.token).toBeDefined();
    // DOCSYNC_CONFIG from the shell names the file; unset, `start` runs the demo
    // (test/integration/deploy/compose-demo.test.ts).
    expect(docsync?.command).toEqual(['start']);
    expect(docsync?.environment).toHaveProperty('DOCSYNC_CONFIG', null);
  });
});
