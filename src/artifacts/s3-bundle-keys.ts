// The keys of bundles in the bucket, as pure functions: the key of an id, and which listed objects
// are docsync's bundles old enough to sweep. Only keys docsync could have written are ever swept, so
// a prefix shared with other objects loses none of them: each key carries a name of docsync's own,
// since an id alone (letters, digits, - and _) is also what `monthly-sales-2024.zip` is made of.
import { ARTIFACT_ID_PATTERN } from './artifact-signature.js';

/**
 * How long past its address's expiry a bundle is kept: S3 dates a multipart upload's object from the
 * upload's start, and the store's clock is not docsync's, so a large bundle would otherwise look
 * expired while its address still works.
 */
export const SWEEP_GRACE_MS = 5 * 60_000;

/** What starts the name of every bundle docsync puts in the bucket. */
export const BUNDLE_KEY_NAME = 'docsync-bundle-';

export function bundleKey(prefix: string, id: string): string {
  return `${prefix}${BUNDLE_KEY_NAME}${id}.zip`;
}

export interface ListedObject {
  Key?: string | undefined;
  LastModified?: Date | undefined;
}

/**
 * The bundles under `prefix` written at least `expiresMs` and the grace before `nowMs`: their
 * addresses are dead.
 */
export function expiredBundleKeys(
  objects: readonly ListedObject[],
  prefix: string,
  expiresMs: number,
  nowMs: number,
): string[] {
  const ours = new RegExp(`^${escapeRegExp(`${prefix}${BUNDLE_KEY_NAME}`)}${ARTIFACT_ID_PATTERN}\\.zip$`);
  return objects.flatMap((object) =>
    object.Key !== undefined &&
    ours.test(object.Key) &&
    object.LastModified !== undefined &&
    object.LastModified.getTime() + expiresMs + SWEEP_GRACE_MS <= nowMs
      ? [object.Key]
      : [],
  );
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
