// The body of a `.../move` in a site: `{}` (the end) when no sibling is named, else the position
// with each sibling given as the pointer the service expects.

export interface MovePosition<S> {
  before?: S;
  after?: S;
}

export function moveBody<S>(position: MovePosition<S>, pointer: (sibling: S) => unknown): object {
  if (position.before === undefined && position.after === undefined) return {};
  return {
    position: {
      ...(position.before === undefined ? {} : { before: pointer(position.before) }),
      ...(position.after === undefined ? {} : { after: pointer(position.after) }),
    },
  };
}
