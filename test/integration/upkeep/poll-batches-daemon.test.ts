// A daemon with many mappings polling their change requests at one interval: their polls run in
// batches (src/producers/change-request-poll-schedules.ts), one scheduler per batch, and /status
// shows every mapping's change requests judged, as it does with a poll per mapping.
import { describe, expect, it } from 'vitest';
import { pollChangeRequestsJob } from '../../../jobs/poll-change-requests/poll-change-requests-job.js';
import { BATCHED_FROM } from '../../../src/producers/change-request-poll-schedules.js';
import { startTestDaemon } from '../../support/start-test-daemon.js';
import { callApi, createTestSpace, startTestEmulator } from '../../support/start-test-emulator.js';
import { uniquePrefix } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';

const MAPPINGS = BATCHED_FROM + 1;

interface Status {
  mappings: { name: string; changeRequests?: { subject: string }[] }[];
}

describe('the change request polls of many mappings at one interval', () => {
  it('run in batches, one scheduler each, and judge every mapping', async () => {
    const emulator = await startTestEmulator();
    const names = Array.from({ length: MAPPINGS }, (_, i) => `m${i}`);
    const spaces: string[] = [];
    for (const name of names) {
      const space = await createTestSpace(emulator, `Docs ${name}`);
      await callApi(`${emulator.baseUrl}/spaces/${space}/change-requests`, emulator.tokens.admin, 'POST', {
        subject: `Change of ${name}`,
      });
      spaces.push(space);
    }
    const daemon = await startTestDaemon({
      prefix: uniquePrefix('poll-batches'),
      // Only the change request polls run: the git polls stay queued.
      jobs: [pollChangeRequestsJob],
      service: emulator,
      yaml: `mappings:\n${names
        .map(
          (name, i) =>
            `  - { name: ${name}, space: ${spaces[i]}, git: { repo: https://example.invalid/${name}.git, branch: main }, changeRequest: { poll: 1s, manage: all } }`,
        )
        .join('\n')}\n`,
    });
    const schedulers = await daemon.queues.get('maintain').getJobSchedulers();
    expect(schedulers.map((scheduler) => scheduler.key).sort()).toEqual([
      'poll-change-requests/batch.1000ms.0',
      'poll-change-requests/batch.1000ms.1',
    ]);
    const status = await waitFor(async () => {
      const answer = (await (await fetch(`${daemon.httpAddress}/status`)).json()) as Status;
      return answer.mappings.every((mapping) => (mapping.changeRequests ?? []).length === 1) && answer;
    }, 'every mapping judged');
    expect(status.mappings.map((mapping) => mapping.changeRequests?.[0]?.subject)).toEqual(
      names.map((name) => `Change of ${name}`),
    );
    // One job line per batch tick, with the number of mappings it polled.
    const polled = await waitFor(() => {
      const lines = daemon.lines.filter(
        (line) => line.msg === 'job completed' && line.name === 'poll-change-requests',
      );
      return new Set(lines.map((line) => line.mappings)).size === 2 && lines;
    }, 'a completed tick of each batch');
    expect(new Set(polled.map((line) => line.mappings))).toEqual(new Set([11, 10]));
    expect(polled.every((line) => line.failed === 0)).toBe(true);
  });
});
