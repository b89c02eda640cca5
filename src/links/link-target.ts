// What a broken link points to, named for the link comment and the stored check: the address as
// written, or the id of the page or file it names, or else the kind of what it names.
import type { ContentLocation } from '../api/schemas/content-location-schema.js';

export function linkTarget(location: ContentLocation | undefined): string {
  return location?.url ?? location?.page?.id ?? location?.file?.id ?? location?.kind ?? 'unknown';
}

/** The pages a link is written on (its locations that are pages), with their titles and paths. */
export function linkPages(locations: readonly ContentLocation[]): LocatedPage[] {
  return locations.flatMap((location) => (location.page === undefined ? [] : [location.page]));
}

export type LocatedPage = NonNullable<ContentLocation['page']>;
