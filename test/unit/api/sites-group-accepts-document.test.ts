// The sites client group reads everything the public document allows: answers generated from the
// document for each operation it calls (every enum value and branch, optional members absent,
// nullable ones null, unknown members added) are parsed with the group's zod schema; and the bodies
// it sends are ones the document accepts.
import { describe, expect, it } from 'vitest';
import { pageOf } from '../../../src/api/schemas/page-of.js';
import { siteAdaptiveSchemaSchema } from '../../../src/api/schemas/site-adaptive-schema-schema.js';
import { publishedSiteSchema } from '../../../src/api/schemas/site-published-schema.js';
import { sitePublishResultSchema, siteSchema } from '../../../src/api/schemas/site-schema.js';
import { siteSectionGroupSchema } from '../../../src/api/schemas/site-section-group-schema.js';
import { siteSectionSchema } from '../../../src/api/schemas/site-section-schema.js';
import { siteSpaceSchema } from '../../../src/api/schemas/site-space-schema.js';
import { noContentSchema } from '../../../src/api/site-path.js';
import {
  type DocumentedCalls,
  itReadsEveryDocumentedAnswer,
  type Operation,
} from '../../support/document-answers.js';
import { checkRequest, checkResponse, documentOperation } from '../../support/service-document.js';

const SITES = '/orgs/{organizationId}/sites';
const SITE = `${SITES}/{siteId}`;
const SECTION = `${SITE}/sections/{siteSectionId}`;
const GROUP = `${SITE}/section-groups/{siteSectionGroupId}`;
const SITE_SPACE = `${SITE}/site-spaces/{siteSpaceId}`;

/** What each method of the sites group reads, by `group.method`. */
const CALLS: DocumentedCalls = {
  'sites.list': { operation: ['GET', SITES, 200], schema: pageOf(siteSchema) },
  'sites.create': { operation: ['POST', SITES, 201], schema: siteSchema },
  'sites.get': { operation: ['GET', SITE, 200], schema: siteSchema },
  'sites.update': { operation: ['PATCH', SITE, 200], schema: siteSchema },
  'sites.publish': { operation: ['POST', `${SITE}/publish`, 200], schema: sitePublishResultSchema },
  'sites.unpublish': { operation: ['POST', `${SITE}/unpublish`, 200], schema: siteSchema },
  'sites.getAdaptiveSchema': {
    operation: ['GET', `${SITE}/adaptive-schema`, 200],
    schema: siteAdaptiveSchemaSchema,
  },
  'sites.putAdaptiveSchema': {
    operation: ['PUT', `${SITE}/adaptive-schema`, 200],
    schema: siteAdaptiveSchemaSchema,
  },
  'sites.getPublished': { operation: ['GET', `${SITE}/published`, 200], schema: publishedSiteSchema },
  'sections.list': { operation: ['GET', `${SITE}/sections`, 200], schema: pageOf(siteSectionSchema) },
  'sections.create': { operation: ['POST', `${SITE}/sections`, 201], schema: siteSectionSchema },
  'sections.update': { operation: ['PATCH', SECTION, 200], schema: siteSectionSchema },
  'sections.move': { operation: ['POST', `${SECTION}/move`, 200], schema: siteSectionSchema },
  'sectionGroups.list': {
    operation: ['GET', `${SITE}/section-groups`, 200],
    schema: pageOf(siteSectionGroupSchema),
  },
  'sectionGroups.create': {
    operation: ['POST', `${SITE}/section-groups`, 201],
    schema: siteSectionGroupSchema,
  },
  'sectionGroups.update': { operation: ['PATCH', GROUP, 200], schema: siteSectionGroupSchema },
  'sectionGroups.addSection': {
    operation: ['POST', `${GROUP}/sections`, 201],
    schema: siteSectionGroupSchema,
  },
  'sectionGroups.move': { operation: ['POST', `${GROUP}/move`, 200], schema: siteSectionGroupSchema },
  'siteSpaces.list': { operation: ['GET', `${SITE}/site-spaces`, 200], schema: pageOf(siteSpaceSchema) },
  'siteSpaces.add': { operation: ['POST', `${SITE}/site-spaces`, 201], schema: siteSpaceSchema },
  'siteSpaces.update': { operation: ['PATCH', SITE_SPACE, 200], schema: siteSpaceSchema },
  'siteSpaces.move': { operation: ['POST', `${SITE_SPACE}/move`, 200], schema: siteSpaceSchema },
};

/** Deletions: 205, or 204 when there was nothing to delete; no body either way. */
const NO_BODY: readonly Operation[] = [
  SITE,
  SECTION,
  GROUP,
  `${GROUP}/sections/{siteSectionId}`,
  SITE_SPACE,
].flatMap((path) => [['DELETE', path, 205] as const, ['DELETE', path, 204] as const]);

describe('the sites group against the public document', () => {
  itReadsEveryDocumentedAnswer('sites-group-accepts-document', CALLS);

  it('sends request bodies the document accepts', () => {
    const pointer = (siteSection: string) => ({ type: 'site-section', siteSection });
    const bodies: Array<[method: string, path: string, body: unknown]> = [
      ['POST', SITES, {}],
      ['POST', SITES, { type: 'premium', title: 'Docs', visibility: 'share-link', spaces: ['spc_1'] }],
      [
        'PATCH',
        SITE,
        {
          title: 'Docs',
          basename: 'docs',
          adaptiveContent: { enabled: true },
          agentsContext: 'excluded',
          defaultSiteSpace: 'ss_1',
          defaultSiteSection: 'sc_1',
          proxy: 'example.com/docs',
        },
      ],
      ['PATCH', SITE, { proxy: null }],
      [
        'PUT',
        `${SITE}/adaptive-schema`,
        { jsonSchema: { type: 'object', properties: {}, additionalProperties: false } },
      ],
      ['POST', `${SITE}/sections`, { spaceId: 'spc_1', title: null, icon: 'book' }],
      ['PATCH', SECTION, { title: 'Guides', path: 'guides', condition: null, icon: null, description: null }],
      ['POST', `${SECTION}/move`, {}],
      ['POST', `${SECTION}/move`, { position: { before: pointer('sc_2'), after: pointer('sc_1') } }],
      [
        'POST',
        `${SITE}/section-groups`,
        { title: 'Reference', icon: null, sections: ['sc_1'], parent: 'sg_1' },
      ],
      ['PATCH', GROUP, { title: 'Reference', icon: 'code' }],
      ['POST', `${GROUP}/sections`, { sectionId: 'sc_1' }],
      ['POST', `${GROUP}/move`, { position: { after: { type: 'site-section-group', id: 'sg_2' } } }],
      ['POST', `${SITE}/site-spaces`, { spaceId: 'spc_1', sectionId: 'sc_1' }],
      ['PATCH', SITE_SPACE, { path: 'v2', condition: null, spaceId: 'spc_2' }],
      ['POST', `${SITE_SPACE}/move`, { position: { before: { type: 'site-space', siteSpace: 'ss_2' } } }],
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
    // The interface's enumerated `spaces` of a new site is the one body the document does not list.
    expect(checkRequest('POST', SITES, { spaces: 'new' }).valid).toBe(false);
  });

  it('reads deletions as answers without a body, which the document gives no schema', () => {
    for (const [method, path, status] of NO_BODY) {
      expect(documentOperation(method, path)?.responses?.[String(status)]).toBeDefined();
      expect(checkResponse(method, path, status, undefined).known).toBe(false);
    }
    expect(noContentSchema.safeParse(undefined).success).toBe(true);
    expect(noContentSchema.safeParse({ unexpected: true }).success).toBe(false);
  });
});
