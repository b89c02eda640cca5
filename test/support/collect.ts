// Reads an async iterable to the end, for tests of what a stream or a paginated listing yields.
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}
