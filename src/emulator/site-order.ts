// Moves within a site: an item's place among its siblings is its place in the site's array, so a
// move takes it out and puts it back next to its anchor (whose container the caller already gave
// it), or at the end. The interface's `position` names `before` and/or `after` a sibling.
import { badRequest } from './emulator-http-error.js';

export interface Placement<T> {
  before?: T | undefined;
  after?: T | undefined;
}

/**
 * Puts `item` in `list` just before `before`, just after `after`, or last when neither is given.
 * With both, they must be neighbours among the siblings of `before` (`sameContainer`), else a 400.
 */
export function placeInOrder<T>(
  list: T[],
  item: T,
  placement: Placement<T>,
  sameContainer: (a: T, b: T) => boolean,
): void {
  const { before, after } = placement;
  if (before === item || after === item)
    throw badRequest('position: an item cannot be placed next to itself');
  const at = list.indexOf(item);
  if (at >= 0) list.splice(at, 1);
  if (before !== undefined && after !== undefined) {
    const siblings = list.filter((other) => sameContainer(other, before));
    if (!sameContainer(after, before) || siblings.indexOf(after) + 1 !== siblings.indexOf(before)) {
      list.splice(at < 0 ? list.length : at, 0, item);
      throw badRequest('position: before and after are not neighbours');
    }
  }
  if (before !== undefined) list.splice(list.indexOf(before), 0, item);
  else if (after !== undefined) list.splice(list.indexOf(after) + 1, 0, item);
  else list.push(item);
}
