// The local service serves every endpoint of the interface: read from its route table (fastify's
// `hasRoute`), so an endpoint counts once a route answers its path and method.
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createEmulator } from '../../../src/emulator/create-emulator.js';
import { closeAfter } from '../../support/close-after.js';
import { INTERFACE_ENDPOINTS } from '../../support/interface-endpoints.js';
import { TEST_MEMBERS } from '../../support/start-test-emulator.js';

describe('endpoints of the local service', async () => {
  const emulator = await createEmulator({ members: TEST_MEMBERS, log: pino({ level: 'silent' }) });
  closeAfter(() => emulator.close());
  await emulator.app.ready();

  it('serves every endpoint of the interface', () => {
    const missing = INTERFACE_ENDPOINTS.filter(
      (endpoint) =>
        !emulator.app.hasRoute({
          method: endpoint.method,
          url: endpoint.path.replace(/\{([^}]+)\}/g, ':$1'),
        }),
    ).map((endpoint) => `${endpoint.method} ${endpoint.path}`);
    process.stdout.write(
      `${`endpoints served: ${INTERFACE_ENDPOINTS.length - missing.length} of ${INTERFACE_ENDPOINTS.length}`}\n`,
    );
    expect(missing).toEqual([]);
  });
});
