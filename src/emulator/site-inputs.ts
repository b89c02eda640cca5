// Bodies and query strings of the site routes, with the interface's limits (a value beyond them is
// a 400 naming the field). Members the public document adds to a body are accepted too.
import { z } from 'zod';
import {
  NEW_SITE_SPACE,
  SITE_AGENTS_CONTEXTS,
  SITE_TYPES,
  SITE_VISIBILITIES,
} from '../api/schemas/site-enums.js';

const booleanText = z.enum(['true', 'false']).transform((text) => text === 'true');
export const listQuery = z.looseObject({ page: z.string().optional(), limit: z.string().optional() });

export const siteListQuery = listQuery.extend({
  space: z.string().optional(),
  title: z.string().optional(),
  published: booleanText.optional(),
  type: z.union([z.enum(SITE_TYPES), z.array(z.enum(SITE_TYPES))]).optional(),
});
export const shareKeyQuery = listQuery.extend({ shareKey: z.string().optional() });
export const siteSpaceListQuery = shareKeyQuery.extend({ default: booleanText.optional() });

const siteTitle = z.string().min(2).max(128);
const icon = z.string().max(50);
const condition = z.string().min(1).max(1024);
const path = z.string().min(1).max(100);
/** The document's SiteProxyOrigin: a host name, then one or more path segments. */
const proxyOrigin = z
  .string()
  .max(512)
  .regex(/^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$/, 'a host name followed by one or more path segments');

export const siteCreate = z.strictObject({
  type: z.enum(SITE_TYPES).optional(),
  title: siteTitle.optional(),
  visibility: z.enum(SITE_VISIBILITIES).optional(),
  spaces: z.union([z.array(z.string().min(1)), z.literal(NEW_SITE_SPACE)]).optional(),
});

export const sitePatch = z.strictObject({
  title: siteTitle.optional(),
  visibility: z.enum(SITE_VISIBILITIES).optional(),
  basename: z.string().min(1).max(100).optional(),
  adaptiveContent: z.strictObject({ enabled: z.boolean() }).optional(),
  agentsContext: z.enum(SITE_AGENTS_CONTEXTS).optional(),
  defaultSiteSpace: z.string().min(1).optional(),
  defaultSiteSection: z.string().min(1).optional(),
  proxy: proxyOrigin.nullable().optional(),
});

const claimPrimitive = z.union([
  z.strictObject({ type: z.literal('boolean'), description: z.string() }),
  z.strictObject({ type: z.literal('string'), enum: z.array(z.string()), description: z.string() }),
  z.strictObject({ type: z.literal('string'), description: z.string() }),
  z.strictObject({ type: z.literal('number'), description: z.string() }),
]);

interface ClaimObject {
  type: 'object';
  description: string;
  properties: Record<string, Claim>;
  additionalProperties: false;
}
type Claim =
  | z.infer<typeof claimPrimitive>
  | { type: 'array'; description: string; items: z.infer<typeof claimPrimitive> }
  | ClaimObject;

const claim: z.ZodType<Claim> = z.lazy(() =>
  z.union([
    claimPrimitive,
    z.strictObject({ type: z.literal('array'), description: z.string(), items: claimPrimitive }),
    z.strictObject({
      type: z.literal('object'),
      description: z.string(),
      properties: z.record(z.string(), claim),
      additionalProperties: z.literal(false),
    }),
  ]),
);

/** The document's SiteAdaptiveJSONSchema: claims at the top level, unsigned claims under `unsigned`. */
export const adaptiveSchemaPut = z.strictObject({
  jsonSchema: z.strictObject({
    $schema: z.literal('http://json-schema.org/draft-07/schema#').optional(),
    type: z.literal('object'),
    properties: z
      .object({
        unsigned: z
          .strictObject({
            type: z.literal('object'),
            description: z.literal('Unsigned claims of the site visitor.'),
            properties: z.record(z.string(), claim),
            additionalProperties: z.literal(false),
          })
          .optional(),
      })
      .catchall(claim),
    additionalProperties: z.literal(false),
  }),
});

export const sectionCreate = z.strictObject({
  spaceId: z.string().min(1),
  title: z.string().min(2).max(64).nullable().optional(),
  icon: icon.nullable().optional(),
});

export const sectionPatch = z.strictObject({
  title: siteTitle.optional(),
  path: path.optional(),
  defaultSiteSpace: z.string().min(1).optional(),
  condition: condition.nullable().optional(),
  icon: icon.nullable().optional(),
  description: z.string().max(256).nullable().optional(),
});

const sectionPointer = z.strictObject({ type: z.literal('site-section'), siteSection: z.string().min(1) });
export const sectionMove = z.strictObject({
  position: z
    .strictObject({ before: sectionPointer.optional(), after: sectionPointer.optional() })
    .optional(),
});

const groupTitle = z.string().min(1).max(100);
export const groupCreate = z.strictObject({
  title: groupTitle,
  icon: icon.nullable().optional(),
  sections: z.array(z.string().min(1)).optional(),
  parent: z.string().min(1).optional(),
});
export const groupPatch = z.strictObject({ title: groupTitle.optional(), icon: icon.nullable().optional() });
export const groupSectionAdd = z.strictObject({ sectionId: z.string().min(1) });

const groupPointer = z.strictObject({
  type: z.enum(['site-section', 'site-section-group']),
  id: z.string().min(1),
});
export const groupMove = z.strictObject({
  position: z.strictObject({ before: groupPointer.optional(), after: groupPointer.optional() }).optional(),
});

export const siteSpaceAdd = z.strictObject({
  spaceId: z.string().min(1),
  sectionId: z.string().min(1).optional(),
});
export const siteSpacePatch = z.strictObject({
  path: path.optional(),
  condition: condition.nullable().optional(),
  spaceId: z.string().min(1).optional(),
});

const siteSpacePointer = z.strictObject({ type: z.literal('site-space'), siteSpace: z.string().min(1) });
export const siteSpaceMove = z.strictObject({
  position: z
    .strictObject({ before: siteSpacePointer.optional(), after: siteSpacePointer.optional() })
    .optional(),
});
