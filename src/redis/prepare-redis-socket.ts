// What every socket docsync's Redis clients use gets, from docsync's connectors (a standalone
// server's and a Cluster's nodes': coalescing-standalone-connector.ts; Sentinel's primary:
// failover-safe-sentinel-connector.ts):
//
// - The writes of one tick leave in one. ioredis writes each command on its own, and a write is a
//   system call: on a busy machine it costs more than the command does in Redis. BullMQ's workers
//   send many at once (the jobs of a batch end in the same tick, each with its moveToFinished), and
//   docsync's lock calls go beside them. The socket is corked at its first write of a tick and
//   uncorked once that tick's work is done (process.nextTick). Nothing else changes: the commands
//   leave in the order they were written, each is answered on its own, and none waits for I/O (a
//   command sent from a promise's continuation leaves once the tick's continuations have run,
//   before the event loop goes on). A command held back when its socket dies was never sent, and
//   ioredis sends it again on the next connection as any unanswered one. This is not ioredis's
//   auto-pipelining, which regroups commands into pipelines and breaks the order BullMQ's
//   transactions rely on.
// - A listener for errors. ioredis listens for a socket's first error only (`once`), reports it and
//   moves to a new socket; a second error of the old one had no listener and ended the process as an
//   uncaught exception. That happens on TLS: a handshake refused for a certificate of another CA
//   fails once on docsync's side, then again when the server's alert arrives. The first error still
//   reaches ioredis as before; what an abandoned socket says after it is dropped.
import type { Duplex } from 'node:stream';

function ignoreSocketError(): void {}

/** `socket`, its writes of a tick coalesced and its later errors kept from ending the process. */
export function prepareRedisSocket<T extends Duplex>(socket: T): T {
  socket.on('error', ignoreSocketError);
  const write = socket.write;
  let corked = false;
  const uncork = () => {
    corked = false;
    socket.uncork();
  };
  socket.write = function coalescedWrite(this: T, ...args: Parameters<Duplex['write']>): boolean {
    if (!corked && socket.writable) {
      corked = true;
      socket.cork();
      process.nextTick(uncork);
    }
    return write.apply(this, args);
  } as T['write'];
  return socket;
}
