// Headless Chromium for tests that look at a page as a person would: Debian's `chromium` (installed
// by .ci/run when missing) driven by playwright-core, which downloads no browser of its own.
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { closeAfter } from './close-after.js';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

export function chromiumPath(): string {
  const path = process.env.CHROMIUM_PATH ?? CANDIDATES.find((candidate) => existsSync(candidate));
  if (path === undefined || !existsSync(path))
    throw new Error(
      "no Chromium found: install Debian's chromium (sudo apt-get install chromium), or set CHROMIUM_PATH to a Chromium or Chrome executable",
    );
  return path;
}

/** A browser closed after the test (or the file). */
export async function launchChromium(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    // Containers run tests as root, where Chromium's sandbox cannot start.
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  closeAfter(() => browser.close());
  return browser;
}
