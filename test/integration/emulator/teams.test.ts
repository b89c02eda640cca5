// Teams in the local service through docsync's client: creating and finding them, members added,
// removed and made owners (by id or e-mail, in bulk or one at a time), what owners may do, a member's
// teams; limits, roles, unknown ids and duplicate titles; every answer checked against the document.
import { describe, expect, it } from 'vitest';
import { userIdOf } from '../../../src/emulator/create-emulator.js';
import { expectApiStatus } from '../../support/api-error-of.js';
import { documented, documentedError } from '../../support/documented-answer.js';
import { serviceAs } from '../../support/service-request.js';
import { startTestEmulator } from '../../support/start-test-emulator.js';
import { testApiClient } from '../../support/test-api-client.js';

const ADMIN = userIdOf('Admin');
const REVIEWER = userIdOf('Rita Reviewer');
const COMMENTER = userIdOf('Carl Commenter');
const READER = userIdOf('Rea Reader');

const TEAMS = '/orgs/{organizationId}/teams';
const TEAM = `${TEAMS}/{teamId}`;
const TEAM_MEMBERS = `${TEAM}/members`;
const MEMBER_TEAMS = '/orgs/{organizationId}/members/{userId}/teams';

describe('teams and their members in the local service', async () => {
  const test = await startTestEmulator();
  const org = test.orgId;
  const { client } = testApiClient(test);
  const { client: reviewerClient } = testApiClient(test, test.tokens.reviewer);
  const { client: readerClient } = testApiClient(test, test.tokens.reader);

  const create = async (title: string, members?: string[]) =>
    documented(
      'PUT',
      TEAMS,
      201,
      await client.teams.create(org, members === undefined ? { title } : { title, members }),
    );
  const membersOf = async (teamId: string) => {
    const page = documented('GET', TEAM_MEMBERS, 200, await client.teams.listMembers(org, teamId));
    return Object.fromEntries(page.items.map((item) => [item.organization.id, item.team.role]));
  };
  const teamTitles = async (options: { owner?: string; title?: string } = {}) =>
    documented('GET', TEAMS, 200, await client.teams.list(org, options)).items.map((team) => team.title);

  it('creates teams with members, reads and lists them, filtered by title', async () => {
    const writers = await create('Writers', [REVIEWER, COMMENTER]);
    expect(writers).toMatchObject({
      object: 'team',
      title: 'Writers',
      members: 2,
      spaces: 0,
      permissions: { admin: true, view: true },
    });
    await create('Reviewers');
    await create('API writers');
    expect(documented('GET', TEAM, 200, await client.teams.get(org, writers.id))).toMatchObject({
      id: writers.id,
      members: 2,
    });
    expect(await teamTitles()).toEqual(['Writers', 'Reviewers', 'API writers']);
    expect(await teamTitles({ title: 'WRITERS' })).toEqual(['Writers', 'API writers']);
    const first = documented('GET', TEAMS, 200, await client.teams.list(org, { limit: 2 }));
    expect(first.items).toHaveLength(2);
    const rest = documented(
      'GET',
      TEAMS,
      200,
      await client.teams.list(org, { limit: 2, page: first.next?.page }),
    );
    expect(rest.items.map((team) => team.title)).toEqual(['API writers']);
    const all: string[] = [];
    for await (const team of client.teams.listAll(org, { title: 'review' })) all.push(team.title);
    expect(all).toEqual(['Reviewers']);

    const members = documented('GET', TEAM_MEMBERS, 200, await client.teams.listMembers(org, writers.id));
    expect(members.items[0]).toMatchObject({
      organization: { object: 'member', id: REVIEWER, role: 'review' },
      team: { role: 'member' },
      permissions: { view: true },
    });
    // A reader sees the team but may not manage it.
    const asReader = documented('GET', TEAM, 200, await readerClient.teams.get(org, writers.id));
    expect(asReader.permissions).toEqual({ admin: false, view: true });
  });

  it('adds, removes and sets the role of members in one call, by user id or e-mail', async () => {
    const team = await create('Docs crew', [READER]);
    await client.teams.updateMembers(org, team.id, {
      add: [REVIEWER, 'carl.commenter@local.test'],
      remove: [READER],
      memberships: { [ADMIN]: { role: 'owner' } },
    });
    expect(await membersOf(team.id)).toEqual({
      [REVIEWER]: 'member',
      [COMMENTER]: 'member',
      [ADMIN]: 'owner',
    });
    // A user both added and removed is removed.
    await client.teams.updateMembers(org, team.id, { add: [READER], remove: [READER, COMMENTER] });
    expect(await membersOf(team.id)).toEqual({ [REVIEWER]: 'member', [ADMIN]: 'owner' });
    expect(documented('GET', TEAM, 200, await client.teams.get(org, team.id)).members).toBe(2);

    // One at a time: add with a role, change the role, remove.
    await client.teams.setMember(org, team.id, READER);
    await client.teams.setMember(org, team.id, REVIEWER, { role: 'owner' });
    expect(await membersOf(team.id)).toEqual({ [REVIEWER]: 'owner', [ADMIN]: 'owner', [READER]: 'member' });
    await client.teams.removeMember(org, team.id, READER);
    expect(await membersOf(team.id)).not.toHaveProperty(READER);

    // Unknown users change nothing: the whole call is refused.
    await expectApiStatus(client.teams.updateMembers(org, team.id, { add: [COMMENTER, 'usr_unknown'] }), 404);
    await expectApiStatus(client.teams.updateMembers(org, team.id, { add: ['nobody@elsewhere.test'] }), 404);
    expect(await membersOf(team.id)).not.toHaveProperty(COMMENTER);
    await expectApiStatus(client.teams.setMember(org, team.id, 'usr_unknown'), 404);
    await expectApiStatus(client.teams.removeMember(org, team.id, COMMENTER), 404);
  });

  it('lets a team owner manage the team, and nobody else below admin', async () => {
    const team = await create('Owned');
    await expectApiStatus(reviewerClient.teams.setMember(org, team.id, COMMENTER), 403);
    await expectApiStatus(reviewerClient.teams.rename(org, team.id, 'Taken over'), 403);
    await client.teams.setMember(org, team.id, REVIEWER, { role: 'owner' });

    const asOwner = documented('GET', TEAM, 200, await reviewerClient.teams.get(org, team.id));
    expect(asOwner.permissions).toEqual({ admin: true, view: true });
    await reviewerClient.teams.setMember(org, team.id, COMMENTER);
    const renamed = documented(
      'PATCH',
      TEAM,
      200,
      await reviewerClient.teams.rename(org, team.id, 'Owned by Rita'),
    );
    expect(renamed.title).toBe('Owned by Rita');
    // Owners manage their team but do not create or delete teams.
    await expectApiStatus(reviewerClient.teams.create(org, { title: 'Rita team' }), 403);
    await expectApiStatus(reviewerClient.teams.delete(org, team.id), 403);
    await expectApiStatus(readerClient.teams.updateMembers(org, team.id, { remove: [COMMENTER] }), 403);

    // The owner filter: teams the member can manage (an admin manages all).
    // Rita owns Docs crew since the test before.
    expect(await teamTitles({ owner: REVIEWER })).toEqual(['Docs crew', 'Owned by Rita']);
    expect((await teamTitles({ owner: ADMIN })).length).toBeGreaterThan(1);
    expect(await teamTitles({ owner: READER })).toEqual([]);
  });

  it("lists a member's teams with their role in each, filtered by title", async () => {
    const alpha = await create('Alpha squad', [COMMENTER]);
    const beta = await create('Beta squad');
    await client.teams.setMember(org, beta.id, COMMENTER, { role: 'owner' });
    const teams = documented('GET', MEMBER_TEAMS, 200, await client.teams.listOfMember(org, COMMENTER));
    const squads = teams.items.filter((item) => item.team.title.endsWith('squad'));
    expect(squads.map((item) => [item.team.id, item.member.role])).toEqual([
      [alpha.id, 'member'],
      [beta.id, 'owner'],
    ]);
    const filtered = documented(
      'GET',
      MEMBER_TEAMS,
      200,
      await client.teams.listOfMember(org, COMMENTER, { title: 'BETA' }),
    );
    expect(filtered.items.map((item) => item.team.id)).toEqual([beta.id]);
    const all: string[] = [];
    for await (const item of readerClient.teams.listOfMemberAll(org, COMMENTER, { title: 'squad' }))
      all.push(item.team.id);
    expect(all).toEqual([alpha.id, beta.id]);
    await expectApiStatus(client.teams.listOfMember(org, 'usr_unknown'), 404);
  });

  it('refuses duplicate titles, titles beyond 64 characters, unknown teams, and deletes teams', async () => {
    const team = await create('Unique');
    await expectApiStatus(client.teams.create(org, { title: 'unique' }), 409);
    await expectApiStatus(client.teams.create(org, { title: 't'.repeat(65) }), 400);
    await expectApiStatus(client.teams.create(org, { title: '' }), 400);
    await expectApiStatus(client.teams.rename(org, team.id, 'Writers'), 409);
    await expectApiStatus(client.teams.list(org, { limit: 1001 }), 400);
    await expectApiStatus(client.teams.get(org, 'team_unknown'), 404);
    await expectApiStatus(readerClient.teams.create(org, { title: 'Readers' }), 403);

    const admin = serviceAs(test, test.tokens.admin);
    expect(
      await documentedError('PUT', TEAMS, admin(`/orgs/${org}/teams`, 'PUT', { title: 'x'.repeat(65) }), 400),
    ).toContain('title');
    expect(await documentedError('GET', TEAM, admin(`/orgs/${org}/teams/team_unknown`), 404)).toContain(
      'team_unknown',
    );

    await client.teams.delete(org, team.id);
    await expectApiStatus(client.teams.get(org, team.id), 404);
    await expectApiStatus(client.teams.delete(org, team.id), 404);
  });
});
