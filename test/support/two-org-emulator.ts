// The test service with a second organization, "Partner docs", where the test admin is an admin
// too and the reviewer only reads: for transfers between organizations and lookups across them.
import { pino } from 'pino';
import { createEmulator } from '../../src/emulator/create-emulator.js';
import { closeAfter } from './close-after.js';
import { TEST_MEMBERS, type TestEmulator } from './start-test-emulator.js';

export interface TwoOrgEmulator extends TestEmulator {
  partnerOrgId: string;
}

export async function startTwoOrgEmulator(): Promise<TwoOrgEmulator> {
  const emulator = await createEmulator({
    members: TEST_MEMBERS,
    organizations: [
      {
        title: 'Partner docs',
        members: [
          { name: 'Admin', role: 'admin' },
          { name: 'Rita Reviewer', role: 'read' },
        ],
      },
    ],
    log: pino({ level: 'silent' }),
  });
  closeAfter(() => emulator.close());
  const origin = await emulator.listen('127.0.0.1', 0);
  const partnerOrgId = emulator.organizationIds[0];
  if (partnerOrgId === undefined) throw new Error('the partner organization was not made');
  return {
    origin,
    baseUrl: `${origin}/v1`,
    orgId: emulator.orgId,
    partnerOrgId,
    emulator,
    tokens: {
      admin: 'admin-token',
      reviewer: 'reviewer-token',
      commenter: 'commenter-token',
      reader: 'reader-token',
    },
  };
}
