// The schedulers of the change request polls: one per mapping for a few mappings at an interval,
// batches of at most BATCH_SIZE from BATCHED_FROM mappings at one interval, named by their interval
// and place, each mapping in exactly one scheduler.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/load-config.js';
import {
  BATCH_SIZE,
  BATCHED_FROM,
  changeRequestPollSchedules,
} from '../../../src/producers/change-request-poll-schedules.js';

function mappings(groups: readonly { count: number; poll: string; from?: number }[]) {
  const lines = groups.flatMap(({ count, poll, from = 0 }) =>
    Array.from(
      { length: count },
      (_, i) =>
        `  - { name: m${from + i}, space: spc_${from + i}, git: { repo: https://example.invalid/r${from + i}.git, branch: main }, changeRequest: { poll: ${poll} } }`,
    ),
  );
  return parseConfig(
    `service: { baseUrl: "http://127.0.0.1:1/v1", token: t }\nmappings:\n${lines.join('\n')}\n`,
    'test.yaml',
    {},
  ).mappings;
}

describe('changeRequestPollSchedules', () => {
  it('gives each mapping its own scheduler below BATCHED_FROM mappings at an interval', () => {
    const wanted = changeRequestPollSchedules(mappings([{ count: BATCHED_FROM - 1, poll: '1m' }]));
    expect(wanted).toHaveLength(BATCHED_FROM - 1);
    expect(wanted[0]).toEqual({ key: 'm0', repeat: { every: 60_000 }, payload: { mapping: 'm0' } });
  });

  it('batches from exactly BATCHED_FROM mappings at an interval', () => {
    const wanted = changeRequestPollSchedules(mappings([{ count: BATCHED_FROM, poll: '1m' }]));
    expect(wanted).toEqual([
      {
        key: 'batch.60000ms.0',
        repeat: { every: 60_000 },
        payload: { mappings: Array.from({ length: BATCHED_FROM }, (_, i) => `m${i}`) },
      },
    ]);
  });

  it('keeps the names of the batches when a mapping comes or goes: their schedules stay', () => {
    const count = 2 * BATCH_SIZE;
    const keys = (n: number) =>
      changeRequestPollSchedules(mappings([{ count: n, poll: '1m' }])).map((scheduler) => scheduler.key);
    expect(keys(count - 1)).toEqual(keys(count));
    // One more than two full batches: a third comes, the first two keep their names.
    expect(keys(count + 1)).toEqual([...keys(count), 'batch.60000ms.2']);
  });

  it('batches many mappings at one interval in even batches, and leaves another interval alone', () => {
    const count = 2 * BATCH_SIZE + 5;
    const wanted = changeRequestPollSchedules(
      mappings([
        { count, poll: '1m' },
        { count: 2, poll: '5m', from: count },
      ]),
    );
    const batches = wanted.filter((scheduler) => 'mappings' in scheduler.payload);
    // Three even batches, not two of BATCH_SIZE and one of 5.
    const size = count / 3;
    expect(batches.map((batch) => ('mappings' in batch.payload ? batch.payload.mappings.length : 0))).toEqual(
      [size, size, size],
    );
    expect(batches.map((batch) => batch.key)).toEqual([
      'batch.60000ms.0',
      'batch.60000ms.1',
      'batch.60000ms.2',
    ]);
    expect(batches.every((batch) => batch.repeat.every === 60_000)).toBe(true);
    // Every mapping in one scheduler, once.
    const polled = wanted.flatMap(({ payload }) =>
      'mappings' in payload ? payload.mappings : [payload.mapping],
    );
    expect(polled).toEqual(Array.from({ length: count + 2 }, (_, i) => `m${i}`));
    expect(wanted.slice(-2)).toEqual([
      { key: `m${count}`, repeat: { every: 300_000 }, payload: { mapping: `m${count}` } },
      { key: `m${count + 1}`, repeat: { every: 300_000 }, payload: { mapping: `m${count + 1}` } },
    ]);
  });
});
