// A loopback port nobody listens on right now, for a program the test starts that needs its port
// named in advance (a compose service's fixed port, mapped). Another program may take it in between;
// the test then fails on its listen, loudly, rather than talking to the wrong program.
import { createServer } from 'node:net';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
