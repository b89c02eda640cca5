// Closes several things at once; every one is tried, and any failures are reported together
// rather than dropped, so the shutdown owner can log them and exit non-zero.
export async function closeAll(closers: ReadonlyArray<() => Promise<unknown>>): Promise<void> {
  const results = await Promise.allSettled(closers.map((close) => close()));
  const failures = results.flatMap((result) =>
    result.status === 'rejected' ? [result.reason as unknown] : [],
  );
  if (failures.length === 1) throw failures[0];
  if (failures.length > 1)
    throw new AggregateError(failures, `${failures.length} of ${closers.length} could not be closed`);
}
