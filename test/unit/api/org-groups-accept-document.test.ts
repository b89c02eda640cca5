// The client groups for collections and teams read everything the public document allows: answers
// generated from the document for each operation they call (every enum value and branch, optional
// members absent, nullable ones null, unknown members added) are parsed with the group's zod schema.
// Custom fields have no operation in the document: their schemas are checked against the interface
// text's shapes instead.
import { describe, expect, it } from 'vitest';
import { collectionSchema } from '../../../src/api/schemas/collection-schema.js';
import {
  customFieldSchema,
  customFieldValueEntrySchema,
} from '../../../src/api/schemas/custom-field-schema.js';
import { noContentSchema } from '../../../src/api/schemas/no-content-schema.js';
import { pageOf } from '../../../src/api/schemas/page-of.js';
import { spaceSchema } from '../../../src/api/schemas/space-schema.js';
import { memberTeamSchema, teamMemberSchema, teamSchema } from '../../../src/api/schemas/team-schema.js';
import {
  type DocumentedCalls,
  itReadsEveryDocumentedAnswer,
  type Operation,
} from '../../support/document-answers.js';
import { checkRequest, checkResponse, documentOperation } from '../../support/service-document.js';

const COLLECTION = '/collections/{collectionId}';
const TEAMS = '/orgs/{organizationId}/teams';
const TEAM = `${TEAMS}/{teamId}`;

/** What each method of the collections and teams groups reads, by `group.method`. */
const CALLS: DocumentedCalls = {
  'collections.list': {
    operation: ['GET', '/orgs/{organizationId}/collections', 200],
    schema: pageOf(collectionSchema),
  },
  'collections.create': {
    operation: ['POST', '/orgs/{organizationId}/collections', 201],
    schema: collectionSchema,
  },
  'collections.get': { operation: ['GET', COLLECTION, 200], schema: collectionSchema },
  'collections.update': { operation: ['PATCH', COLLECTION, 200], schema: collectionSchema },
  'collections.listSpaces': { operation: ['GET', `${COLLECTION}/spaces`, 200], schema: pageOf(spaceSchema) },
  'collections.move': { operation: ['POST', `${COLLECTION}/move`, 200], schema: collectionSchema },
  'collections.transfer': { operation: ['POST', `${COLLECTION}/transfer`, 200], schema: collectionSchema },
  'teams.list': { operation: ['GET', TEAMS, 200], schema: pageOf(teamSchema) },
  'teams.create': { operation: ['PUT', TEAMS, 201], schema: teamSchema },
  'teams.get': { operation: ['GET', TEAM, 200], schema: teamSchema },
  'teams.rename': { operation: ['PATCH', TEAM, 200], schema: teamSchema },
  'teams.listMembers': { operation: ['GET', `${TEAM}/members`, 200], schema: pageOf(teamMemberSchema) },
  'teams.listOfMember': {
    operation: ['GET', '/orgs/{organizationId}/members/{userId}/teams', 200],
    schema: pageOf(memberTeamSchema),
  },
};

/** Methods whose answer has no body: the document gives their operation no JSON schema. */
const NO_BODY: readonly Operation[] = [
  ['DELETE', COLLECTION, 205],
  ['DELETE', TEAM, 205],
  ['PUT', `${TEAM}/members`, 204],
  ['PUT', `${TEAM}/members/{userId}`, 204],
  ['DELETE', `${TEAM}/members/{userId}`, 205],
];

describe('the collections and teams groups against the public document', () => {
  itReadsEveryDocumentedAnswer('org-groups-accept-document', CALLS);

  it('sends request bodies the document accepts', () => {
    // The bodies the groups send: their typed inputs as given (transfer wraps the organization id).
    const bodies: Array<[method: string, path: string, body: unknown]> = [
      ['POST', '/orgs/{organizationId}/collections', {}],
      ['POST', '/orgs/{organizationId}/collections', { title: 'Guides', parent: 'col_1' }],
      ['PATCH', COLLECTION, { title: 'T', description: 'D', defaultLevel: null }],
      ['PATCH', COLLECTION, { defaultLevel: 'inherit' }],
      ['POST', `${COLLECTION}/move`, { parent: null }],
      [
        'POST',
        `${COLLECTION}/move`,
        { parent: 'col_2', position: { before: { type: 'space', space: 's' } } },
      ],
      ['POST', `${COLLECTION}/move`, { position: { after: { type: 'collection', collection: 'c' } } }],
      ['POST', `${COLLECTION}/transfer`, { organization: 'org_2' }],
      ['PUT', TEAMS, { title: 'Writers', members: ['usr_1'] }],
      ['PATCH', TEAM, { title: 'Editors' }],
      [
        'PUT',
        `${TEAM}/members`,
        { add: ['a@b.example'], remove: ['usr_1'], memberships: { usr_2: { role: 'owner' } } },
      ],
      ['PUT', `${TEAM}/members/{userId}`, {}],
      ['PUT', `${TEAM}/members/{userId}`, { role: 'member' }],
    ];
    for (const [method, path, body] of bodies) {
      const check = checkRequest(method, path, body);
      expect({ method, path, known: check.known, errors: check.errors }).toEqual({
        method,
        path,
        known: true,
        errors: [],
      });
    }
  });

  it('answers without a body parse to nothing, and the document gives them no body', () => {
    for (const [method, path, status] of NO_BODY) {
      expect(documentOperation(method, path)?.responses?.[String(status)]).toBeDefined();
      expect(checkResponse(method, path, status, undefined).known).toBe(false);
    }
    expect(noContentSchema.safeParse(undefined).success).toBe(true);
    expect(noContentSchema.safeParse({ unexpected: true }).success).toBe(false);
  });

  it('reads custom fields as the interface text describes them, whatever their type name', () => {
    expect(documentOperation('GET', '/orgs/{organizationId}/custom-fields')).toBeUndefined();
    const minimal = { id: 'cf_1', name: 'tier', type: 'rating' };
    const full = {
      ...minimal,
      title: 'Tier',
      description: 'Plan',
      placeholder: 'Pick one',
      options: ['free', 'pro'],
      createdAt: '2025-01-02T03:04:05.000Z',
      updatedAt: '2025-01-02T03:04:05+02:00',
      urls: { location: 'https://service.example/v1/orgs/o/custom-fields/tier' },
      permissions: { view: true, edit: false },
      unknownMemberOfTheFuture: 1,
    };
    for (const field of [minimal, full]) expect(customFieldSchema.safeParse(field).success).toBe(true);
    for (const value of ['text', 3.5, false, ['a', 'b'], undefined]) {
      const entry = value === undefined ? { customField: full } : { customField: full, value };
      expect(customFieldValueEntrySchema.safeParse(entry).success).toBe(true);
    }
    expect(customFieldValueEntrySchema.safeParse({ customField: full, value: { nested: 1 } }).success).toBe(
      false,
    );
    expect(customFieldSchema.safeParse({ id: 'cf_1', type: 'text' }).success).toBe(false);
  });
});
