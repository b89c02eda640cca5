// Settings records of an organization in the local service's state: SAML providers (single sign-on)
// and translation settings. Plain JSON-safe records, like those of emulator-state.ts.
import type { Role } from './roles.js';

export interface StoredSamlProvider {
  id: string;
  seq: number;
  orgId: string;
  label: string;
  /** The identity provider's entity id, sign-on address and certificate; active once all three are set. */
  entityID?: string;
  ssoURL?: string;
  certificate?: string;
  /** A team of the organization that members signing on through the provider join. */
  defaultTeam?: string;
  defaultRole: Role | null;
  createdAt: string;
}

export interface StoredTranslationSettings {
  id: string;
  seq: number;
  orgId: string;
  title: string;
  /** Language codes the content is translated into. */
  languages: string[];
  createdAt: string;
  updatedAt: string;
}
