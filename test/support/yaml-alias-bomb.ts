// An OpenAPI text in YAML whose nested aliases, each level ten of the one below, expand to a billion
// leaves: what a reader must refuse instead of expanding.
export const YAML_ALIAS_BOMB = [
  'openapi: 3.0.3',
  'a: &a ["x","x","x","x","x","x","x","x","x","x"]',
  ...Array.from({ length: 8 }, (_, i) => {
    const name = String.fromCharCode(98 + i);
    const prev = String.fromCharCode(97 + i);
    return `${name}: &${name} [${Array.from({ length: 10 }, () => `*${prev}`).join(',')}]`;
  }),
].join('\n');
