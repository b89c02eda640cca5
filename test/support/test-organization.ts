// A further organization in a running test service, written straight into its state (as
// service-content.ts writes content): members by the names of TEST_MEMBERS call into it with their
// usual tokens, each with the role given here, so one user can be admin in one organization and a
// reader in another.
import { type EmulatorOrgMemberSpec, ensureOrganization } from '../../src/emulator/seed-organizations.js';
import type { TestEmulator } from './start-test-emulator.js';

/** The new organization's id. Its title must differ from the other organizations'. */
export function addTestOrganization(
  test: TestEmulator,
  title: string,
  members: readonly EmulatorOrgMemberSpec[],
): string {
  const { state } = test.emulator;
  if (Object.values(state.orgs).some((org) => org.title === title))
    throw new Error(`addTestOrganization: there is already an organization "${title}"`);
  const org = ensureOrganization(state, { title, members }, test.emulator.clock.now().toISOString());
  return org.id;
}
