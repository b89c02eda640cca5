// What identifies the content an import sends, to skip an import of the same content again: the
// folder (a git tree id, a working copy's content hash) and the mapping's settings that change what
// a folder bundles to. Limits are not part of it: they only decide whether a folder is refused.
import type { MappingConfig } from '../config/mapping-schema.js';

/**
 * `folder` alone under the default settings (so that state written before the settings existed
 * still matches), else `folder` with the settings that differ: `3f2a…|unlisted=append`.
 */
export function contentKey(folder: string, settings: MappingConfig['import']): string {
  const parts = [
    ...(settings.unlisted === 'skip' ? [] : [`unlisted=${settings.unlisted}`]),
    ...(settings.skipFilesOver === undefined ? [] : [`skipFilesOver=${settings.skipFilesOver}`]),
  ];
  return [folder, ...parts].join('|');
}
