// How often a process looks whether Redis came back empty: half the shortest poll or schedule, so
// that the schedulers are back within one poll interval, between 1 s and 5 s.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/load-config.js';
import {
  LOSS_CHECK_MAX_MS,
  LOSS_CHECK_MIN_MS,
  lossCheckIntervalMs,
} from '../../../src/producers/loss-check-interval.js';

function config(body: string) {
  return parseConfig(`service: { baseUrl: "http://127.0.0.1:1/v1", token: t }\n${body}`, 'test.yaml', {});
}

const mapping = (fields: string) =>
  `  - { name: docs, space: spc_1, git: { repo: https://example.invalid/r.git, branch: main${fields} } }\n`;

describe('lossCheckIntervalMs', () => {
  it('looks every 5 s at most, as with the default polls (30 s and more)', () => {
    expect(lossCheckIntervalMs(config(`mappings:\n${mapping('')}`))).toBe(LOSS_CHECK_MAX_MS);
    expect(lossCheckIntervalMs(config(''))).toBe(LOSS_CHECK_MAX_MS);
  });

  it('looks at half the shortest poll, so a poll of 4 s is back before its second tick', () => {
    expect(lossCheckIntervalMs(config(`mappings:\n${mapping(', poll: 4s')}`))).toBe(2000);
  });

  it('never looks more than once a second', () => {
    expect(lossCheckIntervalMs(config(`mappings:\n${mapping(', poll: 1s')}`))).toBe(LOSS_CHECK_MIN_MS);
  });

  it('counts the OpenAPI refreshes and link check schedules given as every, not cron patterns', () => {
    const specs = (schedule: string) =>
      config(`openapi:\n  - { org: org_1, slug: pets, source: { file: ./pets.yaml }, ${schedule} }\n`);
    expect(lossCheckIntervalMs(specs('every: 6s'))).toBe(3000);
    expect(lossCheckIntervalMs(specs('pattern: "* * * * *"'))).toBe(LOSS_CHECK_MAX_MS);
    const links = config(
      `mappings:\n  - { name: docs, space: spc_1, git: { repo: https://example.invalid/r.git, branch: main }, links: { every: 3s } }\n`,
    );
    expect(lossCheckIntervalMs(links)).toBe(1500);
  });
});
