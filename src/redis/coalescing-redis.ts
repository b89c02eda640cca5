// An ioredis client whose commands of one tick leave in one write. Each command ioredis sends is a
// write of its own on the socket, and a write is a system call: on a busy machine it costs more
// than the command does in Redis. BullMQ's workers send many at once (the jobs of a batch end in
// the same tick, each with its moveToFinished), and docsync's lock calls go beside them. The
// socket is corked at the first command of a tick and uncorked once that tick's work is done
// (process.nextTick), so that they go out in one write and Redis reads them in one read.
//
// Nothing else changes: the commands leave in the order they were sent, each is answered on its
// own, and none waits for I/O: a command sent from a promise's continuation leaves once the tick's
// continuations have run, before the event loop goes on. A command held back when its socket dies
// was never sent, and ioredis sends it again on the next connection as any unanswered one. This is
// not ioredis's auto-pipelining, which regroups commands into pipelines and breaks the order
// BullMQ's transactions rely on. A Cluster's clients are made by ioredis itself, so a Cluster
// writes as before.
//
// Its sockets also keep a listener for errors. ioredis listens for a socket's first error only
// (`once`), reports it and moves to a new socket; a second error of the old one had no listener and
// ended the process as an uncaught exception. That happens on TLS: a handshake refused for a
// certificate of another CA fails once on docsync's side, then again when the server's alert
// arrives. The first error still reaches ioredis as before; what an abandoned socket says after it
// is dropped.
import type { Socket } from 'node:net';
import { Redis } from 'ioredis';

type SendCommand = Redis['sendCommand'];

/** What this class reaches of ioredis's private state: the connector that makes each socket. */
interface ConnectorHolder {
  connector?: { connect: (...args: never[]) => Promise<Socket> };
}

/** Connectors whose sockets already get the listener (a client's one connector, over its reconnects). */
const listened = new WeakSet<object>();

function ignoreSocketError(): void {}

export class CoalescingRedis extends Redis {
  /** The socket corked in this tick, if any. */
  #corked: Redis['stream'] | undefined;

  // Called by ioredis's own constructor (before this class's fields exist) and on each reconnect.
  override connect(callback?: Parameters<Redis['connect']>[0]): Promise<void> {
    const { connector } = this as unknown as ConnectorHolder;
    if (connector !== undefined && !listened.has(connector)) {
      listened.add(connector);
      const connect = connector.connect.bind(connector);
      connector.connect = async (...args) => {
        const socket = await connect(...args);
        socket.on('error', ignoreSocketError);
        return socket;
      };
    }
    return super.connect(callback);
  }

  override sendCommand(...args: Parameters<SendCommand>): ReturnType<SendCommand> {
    // A command sent with a stream of its own goes into a pipeline's buffer, not the socket.
    if (this.#corked === undefined && args[1] === undefined && this.status === 'ready') {
      const socket = this.stream;
      if (socket?.writable === true) {
        socket.cork();
        this.#corked = socket;
        process.nextTick(this.#uncork);
      }
    }
    return super.sendCommand(...args);
  }

  /** Sends what this tick wrote. */
  readonly #uncork = (): void => {
    const socket = this.#corked;
    this.#corked = undefined;
    socket?.uncork();
  };
}
