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
import { Redis } from 'ioredis';

type SendCommand = Redis['sendCommand'];

export class CoalescingRedis extends Redis {
  /** The socket corked in this tick, if any. */
  #corked: Redis['stream'] | undefined;

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
