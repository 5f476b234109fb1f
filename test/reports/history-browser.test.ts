/**
 * history.html in a real browser: Debian's chromium driven by playwright-core, as report.html is
 * (test/reports/browser.test.ts). Without chromium the tests skip with the reason; in CI they fail.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { describe, expect, it, type TestContext } from 'vitest';
import { browserMissing, useBrowser } from '../support/browser.ts';
import { writeHistory } from '../../cli/history.ts';
import { PAGE_RUNS } from '../../reports/history-html.ts';
import type { Cell } from '../../reports/history.ts';
import { writeRun } from './history-sample.ts';

const PAG01 = 'PAG-01 without pageSize every item comes back';
const PAG02 = 'PAG-02 pageSize 0 returns no items';
const UPL01 = 'UPL-01 multipart create keeps the bytes';
const ENV01 = 'ENV-01 every body has the envelope';
const BUILDS = PAGE_RUNS + 5;

// A vendor's CI: one results.json (and report.html) per build. PAG-01 broke in build 21, PAG-02 in the
// newest but one; UPL-01 flips in the last builds; ENV-01 always passes.
const dir = mkdtempSync(join(tmpdir(), 'cms-history-browser-'));
for (let n = 1; n <= BUILDS; n++) {
  const tests: Record<string, Cell> = {
    [PAG01]: n < 21 ? 'P' : 'F',
    [PAG02]: n < BUILDS - 1 ? 'P' : 'F',
    [UPL01]: n > BUILDS - 6 && n % 2 === 0 ? 'F' : 'P',
    [ENV01]: 'P',
  };
  const startedAt = new Date(Date.UTC(2026, 10, 1, 0, n)).toISOString();
  writeRun(join(dir, 'ci', `build-${n}`), { label: `build-${n}`, startedAt, tests }, { report: true });
}
const out = join(dir, 'pages');
mkdirSync(out);
writeHistory([join(dir, 'ci')], out);
const url = pathToFileURL(join(out, 'history.html')).href;

const browserOf = useBrowser('history.html');

/** Opens the page in a fresh context; records every request it makes and every error or CSP report it prints. */
async function open(ctx: TestContext): Promise<{ page: Page; requests: string[]; errors: string[] }> {
  const browser = browserOf();
  if (!browser) return ctx.skip(browserMissing);
  const context = await browser.newContext();
  ctx.onTestFinished(() => context.close());
  const page = await context.newPage();
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => errors.push(m.text()));
  await page.goto(url);
  return { page, requests, errors };
}

const gridRow = (page: Page, id: string) => page.locator('#grid tr[data-t]', { hasText: id });

describe('history.html in headless chromium', () => {
  it('opens on the newest regression, in the list of what changed and in the grid, loading nothing else', async (ctx) => {
    const { page, requests, errors } = await open(ctx);
    expect(await page.locator('#regressions tbody tr').first().locator('th').textContent()).toBe(PAG02);
    expect(await page.locator('#regressions tbody tr').nth(1).locator('th').textContent()).toBe(PAG01);
    expect(await page.locator('#grid tr[data-t]').first().locator('th').textContent()).toBe(PAG02);
    expect(await page.locator('#flips tbody tr th').allTextContents()).toEqual([UPL01]);
    expect(requests).toEqual([url]);
    expect(errors).toEqual([]);
  });

  it('filters by family, by newest status and to changed tests only', async (ctx) => {
    const { page } = await open(ctx);
    await page.locator('details.rest > summary').click();
    expect(await gridRow(page, ENV01).isVisible()).toBe(true);
    await page.locator('label[for="changed-only"]').click();
    expect(await gridRow(page, ENV01).isVisible()).toBe(false);
    expect(await gridRow(page, PAG01).isVisible()).toBe(true);
    await page.locator('label[for="family-UPL"]').click();
    expect(await gridRow(page, PAG01).isVisible()).toBe(false);
    expect(await gridRow(page, UPL01).isVisible()).toBe(true);
    expect(await page.locator('#regressions tr', { hasText: PAG02 }).isVisible()).toBe(false);
    await page.locator('label[for="family-all"]').click();
    await page.locator('label[for="changed-only"]').click();
    await page.locator('label[for="status-F"]').click();
    expect(await gridRow(page, PAG02).isVisible()).toBe(true);
    expect(await gridRow(page, ENV01).isVisible()).toBe(false);
    await page.locator('label[for="status-all"]').click();
    expect(await gridRow(page, ENV01).isVisible()).toBe(true);
  });

  it("links a run's column to the report.html beside its results", async (ctx) => {
    const { page } = await open(ctx);
    const head = page.locator('#grid table.grid').first().locator('th.run a').first();
    expect(await head.textContent()).toBe(`build-${BUILDS}`);
    expect(await head.getAttribute('href')).toBe(`../ci/build-${BUILDS}/report.html`);
    await head.click();
    await page.waitForURL(/report\.html$/);
    expect(page.url()).toBe(pathToFileURL(join(dir, 'ci', `build-${BUILDS}`, 'report.html')).href);
    expect(await page.locator('#report').isVisible()).toBe(true);
  });

  it('pages the grid through older runs: headers and cells follow', async (ctx) => {
    const { page, errors } = await open(ctx);
    const heads = () => page.locator('#grid table.grid').first().locator('th.run').allTextContents();
    expect(await heads()).toHaveLength(PAGE_RUNS);
    expect((await heads())[0]).toBe(`build-${BUILDS}`);
    const cells = () => gridRow(page, PAG01).locator('td.c').allTextContents();
    expect((await cells()).every((c) => c === '✗' || c === '✓')).toBe(true);
    await page.locator('#older').click();
    expect(await heads()).toEqual(Array.from({ length: BUILDS - PAGE_RUNS }, (_, i) => `build-${BUILDS - PAGE_RUNS - i}`));
    expect(await cells()).toEqual(Array.from({ length: BUILDS - PAGE_RUNS }, () => '✓'));
    expect(await page.locator('#page-of').textContent()).toBe(`runs ${BUILDS - PAGE_RUNS} to 1 of ${BUILDS} (page 2 of 2)`);
    expect(await page.locator('#older').isDisabled()).toBe(true);
    await page.locator('#newer').click();
    expect((await heads())[0]).toBe(`build-${BUILDS}`);
    expect(await page.locator('#grid th.run a').first().getAttribute('href')).toBe(`../ci/build-${BUILDS}/report.html`);
    expect(errors).toEqual([]);
  });
});
