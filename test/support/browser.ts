/**
 * A real browser for the tests of the pages the suite writes (report.html, history.html): Debian's
 * chromium driven by playwright-core. Without chromium a page's tests skip with the reason, so a
 * developer can still run the project's tests; in CI (CI=true) they fail, because CI must prove every
 * page in a real browser.
 */
import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

const CHROMIUM = '/usr/bin/chromium';
const LAUNCH_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const playwright = await import('playwright-core').catch(() => undefined);

/** Why no browser test can run here, or undefined where they can. */
export const browserMissing = !existsSync(CHROMIUM)
  ? `${CHROMIUM} is not installed (apt-get install chromium)`
  : !playwright
    ? 'playwright-core is not installed'
    : undefined;

/** Launches chromium before a test file's tests and closes it after them; the getter gives it, undefined where it is missing outside CI. */
export function useBrowser(page: string): () => Browser | undefined {
  let browser: Browser | undefined;
  beforeAll(async () => {
    if (browserMissing) {
      if (process.env.CI === 'true') throw new Error(`CI must check ${page} in a real browser: ${browserMissing}`);
      console.warn(`${page} browser tests skipped: ${browserMissing}`);
      return;
    }
    browser = await playwright?.chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });
  return () => browser;
}
