// The identity of the settings an export's folder depends on, kept with its outcome: an export of
// the same revision over the same git folder writes the same files only under the same settings.
// Only what shapes the folder or refuses it counts (not the polls, the author, the repository's
// address, which may hold a token): a hash, so that no setting is copied into the state.
import { createHash } from 'node:crypto';
import type { MappingConfig } from '../config/mapping-schema.js';

export function exportSettingsKey(
  mapping: Pick<MappingConfig, 'space' | 'direction' | 'git' | 'export' | 'import'>,
): string {
  const settings = {
    space: mapping.space,
    direction: mapping.direction,
    dir: mapping.git.dir,
    maxFileBytes: mapping.export.maxFileBytes,
    import: mapping.import,
  };
  return createHash('sha256').update(JSON.stringify(settings)).digest('hex').slice(0, 32);
}
