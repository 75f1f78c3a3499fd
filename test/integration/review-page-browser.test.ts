/**
 * A review's page and its 404 page in a real browser (Debian's Chromium), at 390 and
 * 1280 px: no sideways scroll, no console error or failed request, and axe-core
 * (injected from its package) finds no serious or critical violation. Screenshots go
 * to tmp/screenshots/ (printed).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchChromium, watchProblems } from '../support/browser.ts';
import { PROJECT_ROOT } from '../support/build.ts';
import { rawRequest } from '../support/http.ts';
import { startServer, type RunningServer } from '../support/server.ts';

const SCREENSHOTS = path.join(PROJECT_ROOT, 'tmp/screenshots');
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let server: RunningServer;
let browser: Browser;
let reviewPaths: string[];

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(inject('smallBuild')), launchChromium()]);
  const dataset = JSON.parse((await rawRequest(`${server.url}/reviews.json`)).text) as { reviews: { url: string }[] };
  reviewPaths = dataset.reviews.map((review) => new URL(review.url).pathname);
  mkdirSync(SCREENSHOTS, { recursive: true });
  console.log(`Screenshots: ${SCREENSHOTS}`);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe.each([
  [390, 844],
  [1280, 900],
])('at %i px', (width, height) => {
  it.each([
    ['the newest review', 0, 200],
    ['the oldest review', -1, 200],
    ['an unknown review', undefined, 404],
  ] as const)('%s: fits, loads cleanly, no serious or critical axe violation', async (name, index, status) => {
    const pagePath = index === undefined ? '/reviews/no-such-review' : (reviewPaths.at(index) as string);
    const page = await browser.newPage({ viewport: { width, height } });
    const problems = watchProblems(page);
    const response = await page.goto(server.url + pagePath, { waitUntil: 'load' });
    expect(response?.status()).toBe(status);
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
    const file = path.join(SCREENSHOTS, `review-page-${name.replace(/\W+/g, '-')}-${width}.png`);
    await page.screenshot({ path: file, fullPage: true });
    expect(scrollWidth, `horizontal overflow at ${width} px (see ${file})`).toBeLessThanOrEqual(innerWidth);
    // On the 404 page, its own status is all Chromium may report: the response and its console line.
    const expected = status === 404 ? ['console: Failed to load resource: the server responded with a status of 404 (Not Found)', `404: ${server.url}${pagePath}`] : [];
    expect(problems.list.sort()).toEqual(expected.sort());
    await page.addScriptTag({ content: AXE });
    const violations = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string | null; nodes: unknown[] }[] }> } }).axe;
      const result = await axe.run();
      return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
    });
    console.log(`axe ${pagePath.slice(0, 40)} at ${width} px: ${violations.length} violations ${JSON.stringify(violations)}`);
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
    await page.close();
  });
});
