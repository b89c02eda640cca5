// ioredis listens for a socket's first error only (`once`), reports it and moves to a new socket; a
// second error of the old one had no listener and ended the process as an uncaught exception. That
// happens on TLS: a handshake refused for a certificate of another CA fails once on docsync's side,
// then again when the server's alert arrives. docsync's connectors (standalone and Cluster nodes:
// listening-standalone-connector.ts; Sentinel: failover-safe-sentinel-connector.ts) give each socket
// this listener as well: the first error still reaches ioredis as before, what an abandoned socket
// says after it is dropped.
import type { EventEmitter } from 'node:events';

function ignoreSocketError(): void {}

/** `socket`, with a listener that keeps its later errors from ending the process. */
export function keepSocketErrorListener<T extends EventEmitter>(socket: T): T {
  socket.on('error', ignoreSocketError);
  return socket;
}
