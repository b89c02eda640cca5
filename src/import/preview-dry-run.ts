// A dry run of an import: the pages it would add, change and remove, logged and reported; nothing
// is sent to the service but the reads of the preview.
import type { WrittenBundle } from '../content/write-bundle.js';
import type { Logger } from '../log/create-logger.js';
import { previewImport } from '../preview/preview-import.js';
import { LOGGED_PATHS, previewLogFields } from '../preview/preview-log-fields.js';
import type { MappingState } from '../state/mapping-state.js';
import type { ImportReport } from './import-report.js';
import type { ImportDeps, ImportRequest } from './import-request.js';
import { shaOf } from './request-sha.js';

/** A dry run: the pages the import would add, change and remove, logged and reported. */
export async function previewDryRun(
  deps: ImportDeps,
  request: ImportRequest,
  state: MappingState,
  log: Logger,
  planned: { bundled: WrittenBundle; bundlePath: string; marker: string; subject: string },
): Promise<ImportReport> {
  const { mapping } = request;
  const { bundled, subject } = planned;
  const preview = await previewImport({
    api: deps.api,
    space: mapping.space,
    knownChangeRequest: state.changeRequestId,
    marker: planned.marker,
    bundle: planned.bundlePath,
    limits: mapping.import.limits,
    listed: deps.previewPages ?? LOGGED_PATHS,
    signal: deps.signal,
  });
  log.info(
    {
      subject,
      files: bundled.files,
      bytes: bundled.bytes,
      warnings: bundled.warnings.length,
      ...previewLogFields(preview),
    },
    'dry run: would import into the change request',
  );
  const sha = shaOf(request);
  return {
    result: 'dry-run',
    ...(sha === undefined ? {} : { sha }),
    ...(bundled.warnings.length === 0 ? {} : { warnings: bundled.warnings }),
    preview,
  };
}
