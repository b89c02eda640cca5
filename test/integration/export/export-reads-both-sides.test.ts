// The export reads git's folder while the space's revision arrives: when both fail, the export fails
// once, with nothing left unhandled (an unhandled rejection would stop the daemon).
import { describe, expect, it } from 'vitest';
import { isApiError } from '../../../src/api/api-error.js';
import { runExport } from '../../../src/export/run-export.js';
import { MemoryMappingStateStore } from '../../../src/state/memory-mapping-state-store.js';
import { startExportWorld } from '../../support/export-world.js';
import { setFaults } from '../../support/test-api-client.js';

describe('an export whose two reads fail', () => {
  it('fails with the first error and leaves no rejection unhandled', async () => {
    const world = await startExportWorld(new MemoryMappingStateStore(), 'space-to-git');
    const deps = await world.processDeps('both-fail-mirror');
    // Git's folder cannot be read: its `.gitbook.yaml` is not YAML.
    await world.repo.commit({ 'docs/.gitbook.yaml': 'root: [\n' }, 'Break the layout');
    await world.repo.push();
    // The service refuses the revision, after git's folder failed.
    await setFaults(world.test, {
      latencyMs: 500,
      forced: [{ status: 404, method: 'GET', path: '/content$', times: 5 }],
    });
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', record);
    try {
      const error = await runExport(deps, world.mapping).catch((e: unknown) => e);
      expect(isApiError(error)).toBe(false);
      expect((error as Error).message).toContain('.gitbook.yaml');
      // Node reports a rejection still unhandled once the turn that rejected it ends.
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', record);
    }
  });
});
