// The public document's path for an address actually called (`/v1/orgs/org_1/saml/saml_2` ->
// `/v1/orgs/{organizationId}/saml/{samlProviderId}`), so that answers of tests that call real ids can
// be checked with checkResponse. A literal segment beats a parameter (`versions/latest`).
import { serviceDocument } from './service-document.js';

export function documentRouteOf(address: string): string | undefined {
  const wanted = address.split('?')[0]?.replace(/^\/v1/, '').split('/') ?? [];
  let best: { path: string; literals: number } | undefined;
  for (const path of Object.keys(serviceDocument.paths)) {
    const parts = path.split('/');
    if (parts.length !== wanted.length) continue;
    let literals = 0;
    const matches = parts.every((part, index) => {
      if (/^\{[^}]+\}$/.test(part)) return (wanted[index] ?? '') !== '';
      literals += 1;
      return part === wanted[index];
    });
    if (matches && (best === undefined || literals > best.literals)) best = { path, literals };
  }
  return best === undefined ? undefined : `/v1${best.path}`;
}
