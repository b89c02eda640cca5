// The service checks: one cheap authenticated call (the token's organizations) proves the service
// answers and takes the token; then, for each mapping, its space is read to see that it exists and
// what the token may do with it (its `permissions`), against what the mapping's direction needs.
import type { DocsApiClient } from '../api/docs-api-client.js';
import type { Space } from '../api/schemas/space-schema.js';
import type { MappingConfig } from '../config/mapping-schema.js';
import type { CheckRunner } from './check-runner.js';
import type { NameSource } from './config-sources.js';
import { type Finding, failed, ok, warned } from './doctor-finding.js';
import { serviceProblem } from './service-problem.js';

export interface ServiceCheckInput {
  api: DocsApiClient;
  /** service.baseUrl as it may be shown. */
  baseUrl: string;
  runner: CheckRunner;
  names: NameSource;
}

export async function checkService(input: ServiceCheckInput): Promise<Finding> {
  const attempt = await input.runner.attempt((signal) => input.api.orgs.list({ limit: 1, signal }));
  if (!attempt.ok) return failed('service', undefined, serviceProblem(attempt.error, input));
  const org = attempt.value.items[0];
  if (org === undefined) {
    return warned('service', undefined, {
      code: 'SERVICE_NO_ORGANIZATION',
      message: `${input.baseUrl} accepts the token, but it belongs to no organization`,
      hint: `use a token of a member of the organization that holds the spaces (${input.names(['service', 'token'])})`,
    });
  }
  return ok(
    'service',
    undefined,
    `${input.baseUrl} answers and accepts the token (organization "${org.title}")`,
  );
}

/** The space permissions a mapping's direction needs (the `permissions` object every record carries). */
export function neededPermissions(mapping: Pick<MappingConfig, 'direction' | 'merge'>): string[] {
  if (mapping.direction === 'space-to-git') return ['view'];
  // Imports create and update change requests; merges need the merge permission as well.
  return mapping.merge.enabled ? ['edit', 'merge'] : ['edit'];
}

export async function checkSpace(
  input: ServiceCheckInput,
  mapping: MappingConfig,
  index: number,
): Promise<Finding> {
  const attempt = await input.runner.attempt((signal) => input.api.spaces.get(mapping.space, { signal }));
  if (!attempt.ok) {
    return failed(
      'space',
      mapping.name,
      serviceProblem(attempt.error, {
        ...input,
        space: { id: mapping.space, mapping: mapping.name, index },
      }),
    );
  }
  return spaceFinding(attempt.value, mapping, input.names);
}

export function spaceFinding(space: Space, mapping: MappingConfig, names: NameSource): Finding {
  const needed = neededPermissions(mapping);
  const shown = `"${space.title}" (${space.id})`;
  if (space.permissions === undefined) {
    return warned('space', mapping.name, {
      code: 'SPACE_PERMISSIONS_UNKNOWN',
      message: `${shown} exists, but the service did not say what the token may do with it`,
      hint: `make sure the member behind ${names(['service', 'token'])} may ${needed.join(' and ')} in it`,
    });
  }
  const missing = needed.filter((permission) => space.permissions?.[permission] !== true);
  if (missing.length === 0)
    return ok(
      'space',
      mapping.name,
      `${shown}: the token may ${needed.join(' and ')} (${mapping.direction})`,
    );
  const locked = space.editMode === 'locked' && missing.includes('edit');
  return failed('space', mapping.name, {
    code: 'SPACE_NOT_WRITABLE',
    message: `the token may not ${missing.join(' or ')} in ${shown}, which mapping ${mapping.name} (${mapping.direction}${mapping.merge.enabled ? ', merge.enabled' : ''}) needs${locked ? ': the space is locked' : ''}`,
    hint: locked
      ? 'unlock the space in the service (its edit mode is locked)'
      : `give the member behind ${names(['service', 'token'])} the ${missing.includes('merge') ? 'review' : 'edit'} role or stronger on the space, or use another token`,
  });
}
