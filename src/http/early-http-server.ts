// The HTTP port, bound as soon as the configuration is read, before Redis and fastify: a plain
// node:http server that answers /healthz (the process is alive and serving) while docsync starts, and
// every other path 503 with Retry-After, revealing nothing, token or not. Once the app is ready
// (`serve`), fastify answers every request through this same server (its `serverFactory`), so the
// port never closes between the two. A port that cannot be bound fails the start here, early.
import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { EnvironmentError } from '../errors/environment-error.js';
import type { Logger } from '../log/create-logger.js';

export interface EarlyListenOptions {
  host: string;
  port: number;
  log: Logger;
}

/** What every path but /healthz answers until the app serves. */
const STARTING_BODY = JSON.stringify({ ok: false, starting: true, reason: 'docsync is starting' });
const ALIVE_BODY = JSON.stringify({ ok: true });
/** Seconds a client should wait before asking again while docsync starts. */
const STARTING_RETRY_AFTER_S = 1;
/** fastify's own default, kept now that fastify does not make the server: idle keep-alive sockets live 72 s. */
const KEEP_ALIVE_TIMEOUT_MS = 72_000;

export class EarlyHttpServer {
  readonly server: Server;
  #app: RequestListener | undefined;
  #serving = false;
  #closing: Promise<void> | undefined;

  private constructor() {
    this.server = createServer((request, response) => this.#answer(request, response));
    this.server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  }

  /** Binds `host:port` and answers at once; HTTP_LISTEN_FAILED when the address cannot be bound. */
  static async listen(options: EarlyListenOptions): Promise<EarlyHttpServer> {
    const early = new EarlyHttpServer();
    const { server } = early;
    // Node's own `localhost` is one family, whichever resolves first; 127.0.0.1 is the one every client tries.
    const host = options.host === 'localhost' ? '127.0.0.1' : options.host;
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen({ host, port: options.port }, () => {
          server.removeListener('error', reject);
          resolve();
        });
      });
    } catch (error) {
      throw new EnvironmentError(
        'HTTP_LISTEN_FAILED',
        `cannot listen on ${options.host}:${options.port} (${(error as NodeJS.ErrnoException).code ?? 'error'}): choose another http.listen`,
        { cause: error },
      );
    }
    server.on('error', (error) => options.log.error({ err: error }, 'http server error'));
    options.log.info({ address: early.address }, 'http server listening');
    return early;
  }

  /** Where it listens, such as http://127.0.0.1:8787: all interfaces as this machine's loopback, as fastify says. */
  get address(): string {
    const bound = this.server.address() as AddressInfo;
    if (bound.family === 'IPv6') return `http://[${bound.address}]:${bound.port}`;
    return `http://${bound.address === '0.0.0.0' ? '127.0.0.1' : bound.address}:${bound.port}`;
  }

  /**
   * fastify's `serverFactory`: fastify keeps its request handler and answers through this server,
   * which already listens; fastify never listens itself.
   */
  readonly serverFactory = (handler: RequestListener): Server => {
    this.#app = handler;
    return this.server;
  };

  /** From now on fastify (given `serverFactory`) answers every request, once it is ready. */
  serve(): void {
    if (this.#app === undefined) throw new Error('serve() before fastify was given serverFactory');
    this.#serving = true;
  }

  /** Stops listening and ends every connection, idle or not; later calls wait for the same close. */
  close(): Promise<void> {
    this.#closing ??= new Promise<void>((resolve, reject) => {
      this.server.close((error) => {
        if (error === undefined || (error as NodeJS.ErrnoException).code === 'ERR_SERVER_NOT_RUNNING')
          resolve();
        else reject(error);
      });
      this.server.closeAllConnections();
    });
    return this.#closing;
  }

  #answer(request: IncomingMessage, response: ServerResponse): void {
    if (this.#serving && this.#app !== undefined) {
      this.#app(request, response);
      return;
    }
    const path = (request.url ?? '/').split('?', 1)[0];
    const alive = path === '/healthz' && (request.method === 'GET' || request.method === 'HEAD');
    const body = alive ? ALIVE_BODY : STARTING_BODY;
    response.writeHead(alive ? 200 : 503, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'cache-control': 'no-store',
      ...(alive ? {} : { 'retry-after': String(STARTING_RETRY_AFTER_S) }),
    });
    response.end(request.method === 'HEAD' ? undefined : body);
  }
}
