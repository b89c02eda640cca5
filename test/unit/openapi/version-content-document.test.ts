import { describe, expect, it } from 'vitest';
import { canonicalDigest } from '../../../src/openapi/canonical-digest.js';
import { parseOpenApiText } from '../../../src/openapi/parse-openapi-text.js';
import { versionContentDocument } from '../../../src/openapi/version-content-document.js';

const document = {
  openapi: '3.1.0',
  info: { title: 'Pets', version: '1' },
  paths: { '/pets': { get: { responses: { '200': { description: 'ok' } } } } },
};
const url = 'https://service.test/openapi/v1';

describe('the document in the content of a version', () => {
  it('is the filesystem itself when the service gives the parsed document (the local service)', () => {
    expect(versionContentDocument({ filesystem: document, url })).toBe(document);
  });

  it("is the entry point's specification in a list of parsed files (the real service)", () => {
    const other = { filename: 'pet.yaml', isEntrypoint: false, specification: { type: 'object' } };
    const entry = { filename: 'openapi.yaml', isEntrypoint: true, specification: document };
    expect(versionContentDocument({ filesystem: [other, entry], url })).toBe(document);
    expect(
      versionContentDocument({ filesystem: [{ filename: 'a.json', specification: document }], url }),
    ).toBe(document);
  });

  it('is none when no OpenAPI document can be found: the caller cannot tell what the version holds', () => {
    expect(versionContentDocument({ filesystem: {}, url })).toBeUndefined();
    expect(versionContentDocument({ filesystem: { 'openapi.yaml': document }, url })).toBeUndefined();
    expect(versionContentDocument({ filesystem: [], url })).toBeUndefined();
    const two = [
      { filename: 'a.yaml', specification: document },
      { filename: 'b.yaml', specification: document },
    ];
    expect(versionContentDocument({ filesystem: two, url })).toBeUndefined();
    expect(
      versionContentDocument({ filesystem: [{ isEntrypoint: true, specification: { a: 1 } }], url }),
    ).toBeUndefined();
  });
});

describe('the canonical digest of a document', () => {
  it('is the same however the document was written: JSON or YAML, key order, layout, comments', async () => {
    const yaml = parseOpenApiText(
      "# Pets\nopenapi: 3.1.0\npaths:\n  /pets:\n    get:\n      responses:\n        '200': { description: ok }\ninfo: { version: '1', title: Pets }\n",
    );
    if (!yaml.ok) throw new Error('the YAML does not parse');
    expect(await canonicalDigest(yaml.value)).toBe(await canonicalDigest(document));
    expect(await canonicalDigest(JSON.parse(JSON.stringify(document, null, 2)))).toBe(
      await canonicalDigest(document),
    );
  });

  it('differs for any difference of content: a value, a type, a key, the order of a list', async () => {
    const digest = await canonicalDigest(document);
    const variants: unknown[] = [
      { ...document, info: { title: 'Pets', version: '2' } },
      { ...document, info: { title: 'Pets', version: 1 } },
      { ...document, info: { title: 'Pets', version: '1', description: '' } },
      { ...document, tags: [{ name: 'a' }, { name: 'b' }] },
      { ...document, tags: [{ name: 'b' }, { name: 'a' }] },
      { ...document, tags: [{ name: 'a,b' }] },
      { ...document, tags: [{ name: 'a' }, { name: 'b' }, null] },
    ];
    const digests = await Promise.all(variants.map((variant) => canonicalDigest(variant)));
    expect(new Set([digest, ...digests]).size).toBe(variants.length + 1);
  });
});
