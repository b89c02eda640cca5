// docsync's client reads everything the real service may send: for each operation the client
// calls, answers generated from the service's public document (every enum value, every branch,
// optional members absent, nullable ones null, unknown members added) are parsed with the zod
// schema the client reads that answer with. None may be refused.
import { afterAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { DocsApiClient } from '../../../src/api/docs-api-client.js';
import { changeRequestResultSchema } from '../../../src/api/schemas/change-request-result-schema.js';
import { changeRequestReviewSchema } from '../../../src/api/schemas/change-request-review-schema.js';
import { changeRequestSchema } from '../../../src/api/schemas/change-request-schema.js';
import { commentSchema } from '../../../src/api/schemas/comment-schema.js';
import { contentPagesSchema } from '../../../src/api/schemas/content-pages-schema.js';
import { importResultSchema } from '../../../src/api/schemas/import-result-schema.js';
import { linkCheckListSchema } from '../../../src/api/schemas/link-check-list-schema.js';
import { openApiSpecSchema } from '../../../src/api/schemas/openapi-spec-schema.js';
import {
  openApiSpecContentSchema,
  openApiSpecVersionSchema,
} from '../../../src/api/schemas/openapi-spec-version-schema.js';
import { organizationSchema } from '../../../src/api/schemas/organization-schema.js';
import { pageOf } from '../../../src/api/schemas/page-of.js';
import { revisionPageSchema } from '../../../src/api/schemas/revision-page-schema.js';
import { revisionSchema } from '../../../src/api/schemas/revision-schema.js';
import { spaceSchema } from '../../../src/api/schemas/space-schema.js';
import { linkPages, linkTarget } from '../../../src/links/link-target.js';
import { type Operation, responseSchema, sampleAnswers } from '../../support/document-answers.js';
import { schemaSamples } from '../../support/schema-samples.js';
import { checkResponse, documentOperation } from '../../support/service-document.js';

/** One operation of the document: `METHOD /path` (the document's path) and its success status. */

interface ClientCall {
  /** The operations the method calls: a space's and a change request's variants, every success status. */
  operations: readonly Operation[];
  schema: z.ZodType;
}

const SPACE = '/spaces/{spaceId}';
const CR = '/spaces/{spaceId}/change-requests/{changeRequestId}';
const both = (method: string, tail: string, status = 200): Operation[] => [
  [method, `${SPACE}${tail}`, status],
  [method, `${CR}${tail}`, status],
];

// Every method of docsync's client, by `group.method`. A `...All` method reads the same list as
// its page method; `content.download` fetches bytes from a file's address, which is no operation.
const CALLS: Record<string, ClientCall> = {
  'orgs.list': { operations: [['GET', '/orgs', 200]], schema: pageOf(organizationSchema) },
  'spaces.create': { operations: [['POST', '/orgs/{organizationId}/spaces', 201]], schema: spaceSchema },
  'spaces.get': { operations: [['GET', SPACE, 200]], schema: spaceSchema },
  'spaces.update': { operations: [['PATCH', SPACE, 200]], schema: spaceSchema },
  'spaces.move': { operations: [['POST', `${SPACE}/move`, 200]], schema: spaceSchema },
  'spaces.listLinks': { operations: [['GET', `${SPACE}/links`, 200]], schema: linkCheckListSchema },
  'content.getRevision': { operations: both('GET', '/content'), schema: revisionSchema },
  'content.getPages': { operations: both('GET', '/content/pages'), schema: contentPagesSchema },
  'content.getPage': { operations: both('GET', '/content/page/{pageId}'), schema: revisionPageSchema },
  'content.importContent': { operations: both('POST', '/content/import', 201), schema: importResultSchema },
  'content.listPageLinks': {
    operations: both('GET', '/content/page/{pageId}/links'),
    schema: linkCheckListSchema,
  },
  'changeRequests.list': {
    operations: [['GET', `${SPACE}/change-requests`, 200]],
    schema: pageOf(changeRequestSchema),
  },
  'changeRequests.create': {
    operations: [['POST', `${SPACE}/change-requests`, 201]],
    schema: changeRequestSchema,
  },
  'changeRequests.get': { operations: [['GET', CR, 200]], schema: changeRequestSchema },
  'changeRequests.listLinks': { operations: [['GET', `${CR}/links`, 200]], schema: linkCheckListSchema },
  'changeRequests.patch': { operations: [['PATCH', CR, 200]], schema: changeRequestSchema },
  'changeRequests.merge': { operations: [['POST', `${CR}/merge`, 200]], schema: changeRequestResultSchema },
  'changeRequests.update': { operations: [['POST', `${CR}/update`, 200]], schema: changeRequestResultSchema },
  'changeRequests.listReviews': {
    operations: [['GET', `${CR}/reviews`, 200]],
    schema: pageOf(changeRequestReviewSchema),
  },
  'changeRequests.submitReview': {
    operations: [['POST', `${CR}/reviews`, 201]],
    schema: changeRequestReviewSchema,
  },
  'comments.list': { operations: both('GET', '/comments'), schema: pageOf(commentSchema) },
  'comments.create': { operations: both('POST', '/comments'), schema: commentSchema },
  'comments.update': { operations: both('PUT', '/comments/{commentId}'), schema: commentSchema },
  'openapi.get': {
    operations: [['GET', '/orgs/{organizationId}/openapi/{specSlug}', 200]],
    schema: openApiSpecSchema,
  },
  'openapi.put': {
    operations: [
      ['PUT', '/orgs/{organizationId}/openapi/{specSlug}', 200],
      ['PUT', '/orgs/{organizationId}/openapi/{specSlug}', 201],
    ],
    schema: openApiSpecSchema,
  },
  'openapi.getVersion': {
    operations: [['GET', '/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}', 200]],
    schema: openApiSpecVersionSchema,
  },
  'openapi.getVersionContent': {
    operations: [['GET', '/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}/content', 200]],
    schema: openApiSpecContentSchema,
  },
};

const SAME_AS: Record<string, string> = {
  'content.listPageLinksAll': 'content.listPageLinks',
  'changeRequests.listAll': 'changeRequests.list',
  'changeRequests.listReviewsAll': 'changeRequests.listReviews',
  'comments.listAll': 'comments.list',
};
const NO_OPERATION = new Set(['content.download']);
/** Methods whose answer has no body (the document gives it no schema): checked apart, below. */
const NO_BODY: Record<string, Operation> = { 'spaces.delete': ['DELETE', SPACE, 205] };

/** The groups whose calls are mapped here. */
const OWN = new Set(['orgs', 'spaces', 'content', 'changeRequests', 'comments', 'openapi']);
/** The others, with the test that checks their answers against the document. */
const ELSEWHERE: Record<string, string> = {
  collections: 'org-groups-accept-document.test.ts',
  teams: 'org-groups-accept-document.test.ts',
  customFields: 'org-groups-accept-document.test.ts (not in the document: the interface text)',
  sites: 'sites-group-accepts-document.test.ts',
};

const totals = { operations: 0, generated: 0, invalid: 0, rejected: 0 };

afterAll(() => {
  process.stdout.write(
    `client-accepts-document: ${totals.operations} operations, ` +
      `${totals.generated} samples generated, ${totals.invalid} invalid, ${totals.rejected} rejected\n`,
  );
});

describe("docsync's client against the service's public document", () => {
  it('maps every method of the client to the operations it calls', () => {
    const client = new DocsApiClient({ baseUrl: 'http://127.0.0.1:9/v1', token: 't', timeoutMs: 1000 });
    const groups = Object.entries(client).filter(([name]) => name !== 'transport');
    // The groups added for collections, teams, custom fields and sites have their own tests.
    expect(
      groups.map(([group]) => group).filter((group) => !(group in ELSEWHERE) && !OWN.has(group)),
    ).toEqual([]);
    const methods = groups
      .filter(([group]) => OWN.has(group))
      .flatMap(([group, api]) =>
        Object.getOwnPropertyNames(Object.getPrototypeOf(api))
          .filter((name) => name !== 'constructor')
          .map((name) => `${group}.${name}`),
      );
    const unmapped = methods.filter(
      (name) => !(name in CALLS) && !(name in SAME_AS) && !(name in NO_BODY) && !NO_OPERATION.has(name),
    );
    expect(unmapped).toEqual([]);
    void client.close();
  });

  it.each(Object.entries(NO_BODY))(
    '%s calls an operation the document answers without a body',
    (_name, operation) => {
      const [method, path, status] = operation;
      expect(documentOperation(method, path)?.responses?.[String(status)]).toBeDefined();
      expect(checkResponse(method, path, status, undefined).known).toBe(false);
    },
  );

  it.each(Object.entries(CALLS))('%s reads every answer the document allows', (_name, call) => {
    for (const operation of call.operations) {
      const [method, path, status] = operation;
      const { generated, invalid, rejected } = sampleAnswers(operation, call.schema);
      expect(generated).toBeGreaterThan(0);
      totals.operations += 1;
      totals.generated += generated;
      totals.invalid += invalid.length;
      expect(invalid, `${method} ${path} ${status}`).toEqual([]);
      totals.rejected += rejected.length;
      expect(rejected.slice(0, 5), `${method} ${path} ${status}: ${rejected.length} rejected`).toEqual([]);
    }
  });

  it('names the target and the pages of every link the document allows, from the records', () => {
    let links = 0;
    for (const sample of schemaSamples(responseSchema(['GET', `${SPACE}/links`, 200]))) {
      for (const item of linkCheckListSchema.parse(sample).items) {
        links += 1;
        const target = item.targetReference;
        const name = linkTarget(target);
        expect(typeof name).toBe('string');
        if (target === undefined) expect(name).toBe('unknown');
        else if (target.kind === 'url') expect(name).toBe(target.url);
        else if (target.kind === 'page') expect(name).toBe(target.page?.id);
        else if (target.kind === 'file') expect(name).toBe(target.file?.id);
        else expect(name).toBe(target.kind);
        const pages = item.locationReferences.filter((location) => location.kind === 'page');
        expect(linkPages(item.locationReferences).map((page) => page.id)).toEqual(
          pages.map((location) => location.page?.id),
        );
      }
    }
    expect(links).toBeGreaterThan(10);
  });
});
