// Cleanup for things a test helper opens: an `afterAll` registered while a test runs is never
// called, so inside a test the cleanup runs when that test finishes, and after the file otherwise.
import { afterAll, onTestFinished, TestRunner } from 'vitest';

export function closeAfter(close: () => Promise<unknown> | unknown): void {
  if (TestRunner.getCurrentTest() === undefined) {
    afterAll(async () => {
      await close();
    });
  } else {
    onTestFinished(async () => {
      await close();
    });
  }
}
