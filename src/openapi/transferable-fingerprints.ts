// Operation fingerprints as data a worker can post: `reachedBy` is a function over the worker's
// own tables, which a structured clone drops. Each operation's reached components go as indexes
// into the sorted component names, and `reachedBy` is built again over them on the main thread.
import type { OperationFingerprints } from './operation-fingerprints.js';

export interface PackedFingerprints {
  operations: Record<string, string>;
  components: Record<string, string>;
  /** Operation → indexes into the sorted keys of `components` of all the components it reaches. */
  reached: Record<string, Uint32Array>;
}

export function packFingerprints(fingerprints: OperationFingerprints): PackedFingerprints {
  const keys = Object.keys(fingerprints.components).sort();
  const indexOf = new Map(keys.map((key, index) => [key, index]));
  const reached: Record<string, Uint32Array> = {};
  for (const operation of Object.keys(fingerprints.operations)) {
    const names = fingerprints.reachedBy(operation);
    reached[operation] = Uint32Array.from(names, (name) => indexOf.get(name) ?? 0);
  }
  return { operations: fingerprints.operations, components: fingerprints.components, reached };
}

export function unpackFingerprints(packed: PackedFingerprints): OperationFingerprints {
  const keys = Object.keys(packed.components).sort();
  // Which components are in a set, by index: one array per set asked about, not one lookup per name.
  const masks = new WeakMap<ReadonlySet<string>, Uint8Array>();
  const maskOf = (among: ReadonlySet<string>) => {
    let mask = masks.get(among);
    if (mask === undefined) {
      mask = new Uint8Array(keys.length);
      keys.forEach((key, index) => {
        if (among.has(key)) (mask as Uint8Array)[index] = 1;
      });
      masks.set(among, mask);
    }
    return mask;
  };
  return {
    operations: packed.operations,
    components: packed.components,
    reachedBy: (operation, among) => {
      const indexes = packed.reached[operation] ?? new Uint32Array();
      const mask = among === undefined ? undefined : maskOf(among);
      const names: string[] = [];
      for (const index of indexes)
        if (mask === undefined || mask[index] === 1) names.push(keys[index] as string);
      return names;
    },
  };
}
