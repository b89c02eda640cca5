// The step of an import that talks to the service: find or make the change request docsync keeps
// for the mapping, ask the service to import the published bundle into it, then name the commit.
import type { Logger } from '../log/create-logger.js';
import type { MappingState } from '../state/mapping-state.js';
import type { ImportDeps, ImportRequest } from './import-request.js';
import { keepChangeRequest } from './keep-change-request.js';

/**
 * Finds or makes the change request, brings it up to the main content where needed, and asks the
 * service to import the published bundle into it; then names the commit in its subject.
 */
export async function importIntoChangeRequest(
  deps: ImportDeps,
  request: ImportRequest,
  state: MappingState,
  log: Logger,
  planned: { artifactId: string; marker: string; subject: string; named: string },
) {
  const { mapping } = request;
  const kept = await keepChangeRequest({
    api: deps.api,
    space: mapping.space,
    knownId: state.changeRequestId,
    marker: planned.marker,
    subject: planned.subject,
    log,
    signal: deps.signal,
  });
  const cr = kept.changeRequest;
  // Two-way: the change request's base must hold what the space gained since it was opened (the
  // service's edits, which git holds once exported). Else the import seems to change those pages
  // too, and where the space changed them again since, the older version would win at the merge.
  if (mapping.direction === 'both' && kept.how !== 'created' && cr.outdated === true) {
    await deps.api.changeRequests.update(mapping.space, cr.id, { signal: deps.signal });
    log.info({ cr: cr.id }, 'change request brought up to the main content before the import');
  }
  // A bundle that did not reach its store throws here: nothing is asked of the service.
  const url = await deps.artifacts.publish(planned.artifactId);
  const imported = await deps.api.content.importContent(
    { spaceId: mapping.space, changeRequestId: cr.id },
    { url, source: 'zip' },
    { signal: deps.signal },
  );
  // Only now that its content is in, the subject names the commit: what the git poll and the space
  // poll find again from the service when Redis lost the state (src/recovery/).
  await nameImportedCommit(deps, mapping.space, cr, planned.named, log);
  if (imported.importedResources < imported.totalResources) {
    log.warn(
      { importedResources: imported.importedResources, totalResources: imported.totalResources },
      'the service imported fewer resources than the bundle holds',
    );
  }
  return { cr, how: kept.how, imported };
}

/**
 * Sets the change request's subject once its import went through. Best effort: the content is in
 * and recorded, so a refusal only leaves the older subject (a state lost meanwhile would then find
 * an older commit, and import the newer one again into the same change request).
 */
async function nameImportedCommit(
  deps: ImportDeps,
  space: string,
  changeRequest: { id: string; subject: string },
  subject: string,
  log: Logger,
): Promise<void> {
  if (changeRequest.subject === subject) return;
  try {
    await deps.api.changeRequests.patch(space, changeRequest.id, { subject }, { signal: deps.signal });
  } catch (error) {
    if (deps.signal.aborted) throw error;
    log.warn({ cr: changeRequest.id, err: error }, 'change request subject not updated after the import');
  }
}
