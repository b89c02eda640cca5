import { EventEmitter } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { ShutdownError } from '../../../src/errors/shutdown-error.js';
import { Shutdown } from '../../../src/lifecycle/shutdown.js';
import { captureLog } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';

function fakeProcess() {
  return Object.assign(new EventEmitter(), { exitCode: undefined as number | string | undefined | null });
}

function setup(timeoutMs = 5000) {
  const proc = fakeProcess();
  const clock = { now: 0 };
  const exits: number[] = [];
  const { log, lines } = captureLog();
  const shutdown = new Shutdown({
    log,
    timeoutMs,
    exit: (code) => exits.push(code),
    proc: proc as unknown as NodeJS.Process,
    clock: () => clock.now,
  });
  shutdown.listen();
  /** Delivers `name` to the process, `afterMs` after the one before by the shutdown's clock. */
  const signal = (name: NodeJS.Signals, afterMs = 0) => {
    clock.now += afterMs;
    proc.emit(name, name);
  };
  return { proc, exits, lines, shutdown, signal };
}

/** A workers step that holds the shutdown until the returned release is called. */
function holdWorkers(shutdown: Shutdown): () => void {
  let release: () => void = () => {};
  shutdown.add('workers', () => new Promise<void>((resolve) => (release = resolve)));
  return () => release();
}

describe('Shutdown', () => {
  it('runs steps once, last registered first, on SIGTERM, and sets exit code 0', async () => {
    const { proc, shutdown } = setup();
    const order: string[] = [];
    shutdown.add('redis', () => void order.push('redis'));
    shutdown.add('workers', async () => {
      await sleep(20);
      order.push('workers');
    });
    shutdown.add('producers', () => void order.push('producers'));
    proc.emit('SIGTERM', 'SIGTERM');
    await shutdown.run('again');
    expect(order).toEqual(['producers', 'workers', 'redis']);
    expect(proc.exitCode).toBe(0);
    expect(shutdown.begun.aborted).toBe(true);
  });

  it('runs the other steps when one fails, and exits 1', async () => {
    const { proc, shutdown, lines } = setup();
    const done: string[] = [];
    shutdown.add('redis', () => void done.push('redis'));
    shutdown.add('queues', () => {
      throw new Error('close failed');
    });
    await shutdown.run('SIGINT');
    expect(done).toEqual(['redis']);
    expect(proc.exitCode).toBe(1);
    expect(lines.find((line) => line.msg === 'shutdown step failed')).toMatchObject({ step: 'queues' });
  });

  it('forces the exit on a second signal and aborts running jobs', async () => {
    const { shutdown, exits, signal } = setup();
    const release = holdWorkers(shutdown);
    signal('SIGINT');
    await sleep(5);
    signal('SIGINT', 1500);
    expect(exits).toEqual([1]);
    expect(shutdown.forced.aborted).toBe(true);
    expect(shutdown.forced.reason).toBeInstanceOf(ShutdownError);
    release();
  });

  it('takes the same signal twice within a second as one (Ctrl-C under npm start), and exits 0', async () => {
    const { proc, shutdown, exits, signal } = setup();
    const release = holdWorkers(shutdown);
    signal('SIGINT');
    signal('SIGINT', 20);
    expect(shutdown.forced.aborted).toBe(false);
    await sleep(5);
    release();
    await shutdown.run('again');
    expect(exits).toEqual([]);
    expect(proc.exitCode).toBe(0);
  });

  it('forces the exit on another signal even within a second', async () => {
    const { shutdown, exits, signal } = setup();
    const release = holdWorkers(shutdown);
    signal('SIGINT');
    signal('SIGTERM', 20);
    expect(exits).toEqual([1]);
    await sleep(5);
    release();
  });

  it('forces the exit when the steps outlast the timeout', async () => {
    const { proc, shutdown, exits } = setup(50);
    shutdown.add('workers', () => new Promise<void>(() => {}));
    proc.emit('SIGTERM', 'SIGTERM');
    await waitFor(() => exits.length > 0, 'the forced exit');
    expect(exits).toEqual([1]);
    expect(shutdown.forced.aborted).toBe(true);
  });

  it('runs a step registered while it runs, and one registered after it ended at once', async () => {
    const { shutdown } = setup();
    const done: string[] = [];
    shutdown.add('redis', () => void done.push('redis'));
    shutdown.add('http', async () => {
      // A part that finished starting while the shutdown was already under way.
      shutdown.add('workers', () => void done.push('workers'));
      done.push('http');
    });
    await shutdown.run('SIGTERM');
    expect(done).toEqual(['http', 'workers', 'redis']);
    shutdown.add('late', () => void done.push('late'));
    await sleep(5);
    expect(done).toEqual(['http', 'workers', 'redis', 'late']);
  });

  it('exits 1 when an unexpected error happens during a clean shutdown', async () => {
    const { proc, shutdown } = setup();
    shutdown.add('workers', async () => {
      proc.emit('unhandledRejection', new Error('late failure'));
    });
    await shutdown.run('SIGTERM');
    expect(proc.exitCode).toBe(1);
    expect(shutdown.exitCode).toBe(1);
  });

  it('shuts down with exit code 1 after an uncaught exception', async () => {
    const { proc, shutdown, lines } = setup();
    proc.emit('uncaughtException', new Error('boom'));
    await shutdown.run('ignored');
    expect(proc.exitCode).toBe(1);
    expect(lines[0]).toMatchObject({ level: 'fatal', msg: 'unexpected error, shutting down' });
  });
});
