// A mapping's `import:` block: how a docs folder is read into one import. The bundle's plan reads
// these settings (plan-bundle.ts, check-bundle-limits.ts); the configuration composes this schema
// into a mapping's.
import { z } from 'zod';
import { SERVICE_IMPORT_LIMITS } from '../api/schemas/service-import-limits.js';
import { byteSize, formatBytes } from '../config/byte-size.js';
import { whenParsed } from '../config/parsed-parts.js';

const KIB = 1024;
const GIB = 1024 * 1024 * 1024;

/**
 * How a folder is read into an import: the service's limits (a self-hosted service may have others),
 * files left out by size instead of refusing the folder, and what becomes of pages SUMMARY.md does
 * not list.
 */
export const importSettingsSchema = z
  .strictObject({
    limits: z
      .strictObject({
        maxBytes: byteSize({ min: KIB, max: 64 * GIB }).default(SERVICE_IMPORT_LIMITS.maxBytes),
        maxFileBytes: byteSize({ min: KIB, max: 64 * GIB }).default(SERVICE_IMPORT_LIMITS.maxFileBytes),
        maxFiles: z.int().min(1).max(10_000_000).default(SERVICE_IMPORT_LIMITS.maxFiles),
      })
      .prefault({}),
    /** Files larger than this are left out of the import (each one a warning) rather than refused. */
    skipFilesOver: byteSize({ min: 1, max: 64 * GIB }).optional(),
    unlisted: z.enum(['skip', 'append']).default('skip'),
  })
  .superRefine(
    (value, ctx) => {
      if (value.skipFilesOver !== undefined && value.skipFilesOver > value.limits.maxFileBytes) {
        ctx.addIssue({
          code: 'custom',
          path: ['skipFilesOver'],
          message: `${formatBytes(value.skipFilesOver)} is over limits.maxFileBytes (${formatBytes(value.limits.maxFileBytes)}): files between the two would still be refused; make it ${formatBytes(value.limits.maxFileBytes).replace(' ', '')} or less`,
        });
      }
    },
    whenParsed(['skipFilesOver'], ['limits']),
  );
