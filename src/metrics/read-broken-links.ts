// The broken links of each mapping's targets for /metrics, read from the last link checks that
// every process records in Redis: the space's main content, and the change request the mapping
// keeps. A target never checked has no sample.
import type { MappingConfig } from '../config/mapping-schema.js';
import type { LinkCheckStore } from '../state/link-check-store.js';
import type { MappingStateStore } from '../state/mapping-state.js';
import type { BrokenLinkCount } from './docsync-metrics.js';

export async function readBrokenLinks(
  mappings: readonly Pick<MappingConfig, 'name' | 'space'>[],
  state: MappingStateStore,
  links: LinkCheckStore,
): Promise<BrokenLinkCount[]> {
  const perMapping = await Promise.all(
    mappings.map(async (mapping): Promise<BrokenLinkCount[]> => {
      const { changeRequestId } = await state.get(mapping.name);
      const [main, changeRequest] = await Promise.all([
        links.summary(mapping.space, undefined),
        changeRequestId === undefined ? undefined : links.summary(mapping.space, changeRequestId),
      ]);
      return [
        ...(main === undefined
          ? []
          : [{ mapping: mapping.name, target: 'main' as const, count: main.broken }]),
        ...(changeRequest === undefined
          ? []
          : [{ mapping: mapping.name, target: 'change-request' as const, count: changeRequest.broken }]),
      ];
    }),
  );
  return perMapping.flat();
}
