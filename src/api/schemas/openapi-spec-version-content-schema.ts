// The content of an OpenAPI specification version: its parsed file system and its address.
import { z } from 'zod';

export const openApiSpecVersionContentSchema = z.looseObject({
  filesystem: z.record(z.string(), z.unknown()),
  url: z.string(),
});

export type OpenApiSpecVersionContent = z.output<typeof openApiSpecVersionContentSchema>;
