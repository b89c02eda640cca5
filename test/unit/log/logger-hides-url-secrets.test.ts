import { describe, expect, it } from 'vitest';
import { captureLog } from '../../support/test-context.js';

const SOURCE =
  'https://bot:pw-in-userinfo@specs.test/openapi.yaml?token=tok-in-query&X-Amz-Signature=sig-in-query';
const SECRETS = ['pw-in-userinfo', 'tok-in-query', 'sig-in-query'];

describe('the logger and URLs with credentials', () => {
  it('hides them in fields, messages, child bindings and errors, keeping the parameter names', () => {
    const { log, texts } = captureLog();
    const child = log.child({ component: 'openapi', source: SOURCE }).child({ nested: { url: SOURCE } });
    child.warn(
      { url: SOURCE, list: [SOURCE], deep: { a: { b: { c: { d: { e: SOURCE } } } } } },
      'refresh failed',
    );
    child.error({ err: new Error(`cannot read ${SOURCE}`) }, 'source unreadable');
    child.info(`interpolated %s`, SOURCE);
    const text = texts.join('\n');
    for (const secret of SECRETS) expect(text).not.toContain(secret);
    expect(texts).toHaveLength(3);
    expect(text).toContain('?token=[redacted]&X-Amz-Signature=[redacted]');
    expect(text).toContain('https://***@specs.test/openapi.yaml');
  });

  it('writes lines without URLs byte for byte as pino made them', () => {
    const { log, lines } = captureLog();
    log.info({ count: 3, note: 'a=b & c' }, 'done');
    expect(lines[0]).toMatchObject({ count: 3, note: 'a=b & c', msg: 'done' });
  });
});
