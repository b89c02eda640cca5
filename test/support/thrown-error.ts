// The error a synchronous call throws, checked to be of the class the test expects, so the test can
// go on to assert its code and fields. Throwing nothing fails the test; so does another error.
export function thrownError<E extends Error>(
  type: abstract new (...args: never[]) => E,
  act: () => unknown,
): E {
  try {
    act();
  } catch (error) {
    if (error instanceof type) return error;
    throw error;
  }
  throw new Error(`expected a ${type.name} to be thrown`);
}
