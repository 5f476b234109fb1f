/**
 * report.html in a real browser: Debian's chromium driven by playwright-core. Without chromium the
 * tests skip with the reason, so a developer can still run the suite; in CI (CI=true) they fail,
 * because CI must prove the report in a real browser.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it, type TestContext } from 'vitest';
import { browserMissing, useBrowser } from '../support/browser.ts';
import { finishRun } from '../../reports/index.ts';
import { badgeSvg, badgeText, makeStatement, type Statement } from '../../reports/statement.ts';
import type { Results } from '../../schemas/results.ts';
import { SECRET, sampleResults } from './sample.ts';

const outDir = mkdtempSync(join(tmpdir(), 'cms-report-browser-'));
finishRun(sampleResults(), { outDir, secrets: [SECRET] });
const results = JSON.parse(readFileSync(join(outDir, 'results.json'), 'utf8')) as Results;
const url = pathToFileURL(join(outDir, 'report.html')).href;

const browserOf = useBrowser('report.html');

/** Opens the report in a fresh context; records every request and dialog the page makes. */
async function open(
  ctx: TestContext,
  options: { javaScriptEnabled?: boolean; hash?: string } = {},
): Promise<{ page: Page; requests: string[]; dialogs: string[] }> {
  const browser = browserOf();
  if (!browser) return ctx.skip(browserMissing);
  const context = await browser.newContext({ javaScriptEnabled: options.javaScriptEnabled ?? true });
  ctx.onTestFinished(() => context.close());
  const page = await context.newPage();
  const requests: string[] = [];
  const dialogs: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await page.goto(`${url}${options.hash ?? ''}`);
  return { page, requests, dialogs };
}

/** Whether a <details> element is open (the attribute reflects the state). */
async function isOpen(details: Locator): Promise<boolean> {
  return (await details.getAttribute('open')) !== null;
}

describe('report.html in headless chromium', () => {
  it('shows summary counts equal to results.json, loads nothing and runs no injected script', async (ctx) => {
    const { page, requests, dialogs } = await open(ctx);
    const s = results.summary;
    for (const [key, n] of Object.entries({
      total: s.total,
      passed: s.passed,
      failed: s.failed,
      skipped: s.skipped,
      warnings: s.warnings,
    })) {
      expect(await page.locator(`[data-count="${key}"] b`).textContent(), key).toBe(String(n));
    }
    expect(await page.locator('#verdict').textContent()).toContain('the target does not conform: 3 unexpected failures');
    expect(requests).toEqual([url]);
    expect(dialogs).toEqual([]);
    expect(await page.evaluate('typeof window.__xss')).toBe('undefined');
    expect(await page.content()).not.toContain(SECRET);
  });

  it("opens a failure's details on click", async (ctx) => {
    const { page } = await open(ctx);
    const failure = page.locator('#failures details').filter({ hasText: 'PAG-01 without pageSize' });
    const response = failure.locator('pre', { hasText: 'HTTP 500' });
    expect(await isOpen(failure)).toBe(false);
    expect(await response.isVisible()).toBe(false);
    await failure.locator('summary').click();
    expect(await isOpen(failure)).toBe(true);
    expect(await response.isVisible()).toBe(true);
    expect(await response.textContent()).toContain('<script>window.__xss = 1;');
    expect(await failure.locator('pre.cmd').first().textContent()).toBe('npx cms-conformance run --only PAG-01 --seed 42');
  });

  it('reads fine with JavaScript disabled: details open and the filters work', async (ctx) => {
    const { page } = await open(ctx, { javaScriptEnabled: false });
    expect(await page.locator('#verdict').isVisible()).toBe(true);
    expect(await page.locator('[data-count="failed"] b').textContent()).toBe('3');
    const failure = page.locator('#failures details').first();
    // Pointed at by the URL yet closed: the page's script (which would open it) did not run.
    await page.goto(`${url}#${await failure.getAttribute('id')}`);
    expect(await isOpen(failure)).toBe(false);
    await failure.locator('summary').click();
    expect(await failure.locator('.finding').first().isVisible()).toBe(true);

    const row = (id: string) => page.locator('#tests tr', { hasText: id });
    await page.locator('label[for="status-failed"]').click();
    expect(await row('OP-folder.load').isVisible()).toBe(false);
    expect(await row('PAG-02 pageSize 0').isVisible()).toBe(true);
    expect(await page.locator('#requirements tr', { hasText: 'SRT-01' }).isVisible()).toBe(false);
    await page.locator('label[for="family-UPL"]').click();
    expect(await row('PAG-02 pageSize 0').isVisible()).toBe(false);
    expect(await row('UPL-01').isVisible()).toBe(true);
    await page.locator('label[for="status-all"]').click();
    await page.locator('label[for="family-all"]').click();
    expect(await row('OP-folder.load').isVisible()).toBe(true);
  });

  it("opens the failure a link points to: the page's one script runs under its CSP", async (ctx) => {
    const anchor = await (async () => {
      const { page } = await open(ctx, { javaScriptEnabled: false });
      return page.locator('#requirements tr', { hasText: 'PAG-02' }).locator('a').getAttribute('href');
    })();
    expect(anchor).toMatch(/^#t-\d+$/);
    const { page } = await open(ctx, { hash: anchor ?? '' });
    expect(await isOpen(page.locator(anchor ?? ''))).toBe(true);
  });
});

describe('the conformance badge in headless chromium', () => {
  it('renders both texts inside their boxes, for a failing and for a conforming run', async (ctx) => {
    const browser = browserOf();
    if (!browser) return ctx.skip(browserMissing);
    const failing = makeStatement(readFileSync(join(outDir, 'results.json')));
    const conforming: Statement = {
      ...failing,
      conforms: true,
      counts: { ...failing.counts, total: 316, passed: 316, failed: 0, skipped: 0 },
    };
    for (const s of [failing, conforming]) {
      const page = await browser.newPage();
      ctx.onTestFinished(() => page.close());
      await page.setContent(`<!doctype html><body style="margin:0">${badgeSvg(s)}</body>`);
      const texts = page.locator('svg text');
      expect(await texts.allTextContents()).toEqual(['CMS contract', badgeText(s)]);
      const edges = (els: { getBoundingClientRect(): { left: number; right: number; width: number } }[]) =>
        els.map((e) => {
          const { left, right, width } = e.getBoundingClientRect();
          return { left, right, width };
        });
      const rects = await page.locator('svg rect').evaluateAll(edges);
      const boxes = await texts.evaluateAll(edges);
      // Each text lies inside its own coloured box, with room to spare: no font makes it overflow.
      boxes.forEach((b, i) => {
        const r = rects[i]!;
        expect(b.width).toBeGreaterThan(20);
        expect(b.left).toBeGreaterThanOrEqual(r.left);
        expect(b.right).toBeLessThanOrEqual(r.right);
      });
      expect(await page.locator('svg').getAttribute('aria-label')).toBe(`CMS contract: ${badgeText(s)}`);
    }
  });
});
