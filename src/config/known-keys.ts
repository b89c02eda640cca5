// The keys a schema accepts at a key path of the configuration, read from the schema's own shape,
// so that an unknown key can be compared with the keys that would have been right there.
import type { z } from 'zod';

/**
 * Every key of the objects `schema` accepts at `path` (through optional, default, preprocess,
 * list and alternative wrappers), sorted; none when the path leads nowhere known.
 */
export function knownKeysAt(schema: z.core.$ZodType, path: readonly PropertyKey[]): string[] {
  const keys = new Set<string>();
  for (const object of objectsAt(schema, path)) for (const key of Object.keys(object)) keys.add(key);
  return [...keys].sort();
}

type Shape = Readonly<Record<string, z.core.$ZodType>>;

function objectsAt(schema: z.core.$ZodType, path: readonly PropertyKey[], depth = 0): Shape[] {
  // A schema that refers to itself (z.lazy) must not walk forever.
  if (depth > 64) return [];
  const node = schema as z.core.$ZodTypes;
  const def = node._zod.def;
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      return objectsAt(def.innerType, path, depth + 1);
    case 'pipe':
      return [...objectsAt(def.in, path, depth + 1), ...objectsAt(def.out, path, depth + 1)];
    case 'union':
      return def.options.flatMap((option) => objectsAt(option, path, depth + 1));
    case 'intersection':
      return [...objectsAt(def.left, path, depth + 1), ...objectsAt(def.right, path, depth + 1)];
    case 'lazy':
      return objectsAt(def.getter(), path, depth + 1);
    case 'array': {
      if (path.length === 0) return [];
      const [index, ...rest] = path;
      return typeof index === 'number' ? objectsAt(def.element, rest, depth + 1) : [];
    }
    case 'object': {
      if (path.length === 0) return [def.shape];
      const [key, ...rest] = path;
      const child = typeof key === 'string' ? def.shape[key] : undefined;
      return child === undefined ? [] : objectsAt(child, rest, depth + 1);
    }
    default:
      return [];
  }
}
