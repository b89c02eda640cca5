// Back-pressure for a writable that refused more (`write` returned false): the writer waits until
// it drains, or until it closes (a failed file, a git process gone), and then looks for the failure.
import type { Writable } from 'node:stream';

/**
 * Resolves on the stream's next `drain` or `close`, whichever comes first (at once when it is
 * destroyed already: its `close` has passed); never rejects.
 */
export function waitForDrain(stream: Writable): Promise<void> {
  if (stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}
