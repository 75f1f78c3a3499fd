/**
 * Every type of page, on a phone and a desktop, audited in Chromium (support/page-audit.ts):
 * the status it is meant to have, no sideways scroll of the page or inside it, no table
 * cell out of sight, no console error or failed request, chart labels of 12 px or more,
 * and no serious or critical axe-core violation. Screenshots go to a folder per run
 * (printed). A page type is one line of PAGE_TYPES; `{newest}` and `{oldest}` in a path
 * stand for those reviews' ids.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateContent, writeContent } from '../../bench/generate-content.ts';
import { buildSite, isBuildCurrent } from '../../src/build/build-site.ts';
import { launchChromium } from '../support/browser.ts';
import { PROJECT_ROOT, TEST_SITE_URL } from '../support/build.ts';
import { rawRequest } from '../support/http.ts';
import { auditPage, type PageAudit } from '../support/page-audit.ts';
import { startServer, type RunningServer } from '../support/server.ts';

interface PageType {
  name: string;
  path: string;
  status?: number;
  /** The header link marked current (`aria-current`), if any. */
  section?: string;
  /** False for a page shown inside another site (the embed): it has no header of ours. */
  siteHeader?: false;
}

const PAGE_TYPES: PageType[] = [
  { name: 'home', path: '/', section: '/' },
  { name: 'insights', path: '/insights', section: '/insights' },
  { name: 'developers', path: '/developers', section: '/developers' },
  { name: 'reviews', path: '/reviews', section: '/reviews' },
  { name: 'reviews-filtered', path: '/reviews?min_rating=4&page=2', section: '/reviews' },
  { name: 'reviews-by-service', path: '/reviews?mentions_service=roof-repair&since=2020-01-01', section: '/reviews' },
  { name: 'reviews-bad-filter', path: '/reviews?rating=9', status: 400, section: '/reviews' },
  { name: 'not-found', path: '/no-such-page', status: 404 },
  { name: 'review-newest', path: '/reviews/{newest}', section: '/reviews' },
  { name: 'review-oldest', path: '/reviews/{oldest}', section: '/reviews' },
  { name: 'review-removed', path: '/reviews/no-such-review', status: 404, section: '/reviews' },
  { name: 'embed', path: '/embed?limit=3', siteHeader: false },
  { name: 'embed-bad-parameter', path: '/embed?limit=500', status: 400, siteHeader: false },
];

const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 1280, height: 900 },
];

/** The newest review must start this high on a phone: the home page leads with reviews. */
const FIRST_REVIEW_WITHIN = 1700;
const SMALLEST_READABLE_TEXT = 12;

const SCREENSHOTS = path.join(PROJECT_ROOT, 'tmp/screenshots', new Date().toISOString().slice(0, 19).replaceAll(':', '-'));
/** Several pages of reviews, a trend over several quarters, owner responses, a name with "&". */
const REVIEWS = 120;

let server: RunningServer;
let browser: Browser;
let ids: { newest: string; oldest: string };

beforeAll(async () => {
  const contentDir = path.join(PROJECT_ROOT, 'tmp/test-content/page-types');
  writeContent(contentDir, generateContent(REVIEWS, 21));
  const build = { projectRoot: PROJECT_ROOT, contentDir, siteUrl: TEST_SITE_URL, outDir: path.join(PROJECT_ROOT, 'tmp/test-builds/page-types'), stdio: 'pipe' as const };
  if (!isBuildCurrent(build)) await buildSite(build);
  [server, browser] = await Promise.all([startServer(build.outDir), launchChromium()]);
  const { reviews } = JSON.parse((await rawRequest(`${server.url}/reviews.json`)).text) as { reviews: { id: string }[] };
  ids = { newest: reviews[0]?.id as string, oldest: reviews.at(-1)?.id as string };
  mkdirSync(SCREENSHOTS, { recursive: true });
  console.log(`Screenshots: ${SCREENSHOTS}`);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const pathOf = (type: PageType) => type.path.replace('{newest}', ids.newest).replace('{oldest}', ids.oldest);

describe.each(VIEWPORTS)('at $width px', (viewport) => {
  it.each(PAGE_TYPES)('$name ($path) fits, loads cleanly and has no serious accessibility violation', async (type) => {
    const audit = await auditPage(browser, server.url + pathOf(type), { viewport, status: type.status, screenshotDir: SCREENSHOTS, name: type.name });
    console.log(summary(type, audit));
    expect(audit.status).toBe(type.status ?? 200);
    expect(audit.scrollWidth, `sideways scroll (see ${audit.screenshot})`).toBeLessThanOrEqual(viewport.width);
    expect(audit.innerScrollers, 'boxes that scroll sideways').toEqual([]);
    expect(audit.cellsOutside, 'table cells out of sight').toEqual([]);
    expect(audit.problems).toEqual([]);
    if (audit.smallestSvgText !== null) expect(audit.smallestSvgText).toBeGreaterThanOrEqual(SMALLEST_READABLE_TEXT);
    expect(audit.violations).toEqual([]);
  });
});

describe('the header every page shares', () => {
  it.each(PAGE_TYPES.filter((type) => type.siteHeader !== false))('$name links Home, Reviews, Insights and Developers, marking its own section', async (type) => {
    const page = await browser.newPage();
    try {
      await page.goto(server.url + pathOf(type));
      const links = await page.$$eval('header nav[aria-label="Site"] a', (anchors) => anchors.map((a) => [a.getAttribute('href'), a.textContent, a.getAttribute('aria-current')]));
      expect(links.map(([href, text]) => [href, text])).toEqual([
        ['/', 'Home'],
        ['/reviews', 'Reviews'],
        ['/insights', 'Insights'],
        ['/developers', 'Developers'],
      ]);
      expect(links.filter(([, , current]) => current !== null).map(([href]) => href)).toEqual(type.section ? [type.section] : []);
    } finally {
      await page.close();
    }
  });
});

describe('the home page on a phone', () => {
  it(`starts the newest review within ${FIRST_REVIEW_WITHIN} px, with the business, rating, count and the way to the reviews on the first screen`, async () => {
    const page = await browser.newPage({ viewport: VIEWPORTS[0] as { width: number; height: number } });
    try {
      await page.goto(`${server.url}/`);
      const bottom = (selector: string) => page.$eval(selector, (e) => e.getBoundingClientRect().bottom + window.scrollY);
      const top = (selector: string) => page.$eval(selector, (e) => e.getBoundingClientRect().top + window.scrollY);
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      const firstReview = await top('article.review');
      console.log(`Home page at 390 px: ${height} px tall, the first review starts at ${Math.round(firstReview)} px`);
      expect(await page.$eval('article.review', (e) => e.id)).toBe(`review-${ids.newest}`);
      expect(firstReview).toBeLessThan(FIRST_REVIEW_WITHIN);
      for (const selector of ['h1', '.rating svg[role="img"]', '.rating .count', 'main a.call[href="/reviews"]']) {
        expect(await bottom(selector), selector).toBeLessThanOrEqual(844);
      }
    } finally {
      await page.close();
    }
  });
});

function summary(type: PageType, audit: PageAudit): string {
  const axe = audit.violations.length === 0 ? 'axe: 0 serious/critical' : `axe: ${audit.violations.map((v) => `${v.impact} ${v.id} (${v.targets.join(', ')})`).join('; ')}`;
  const chart = audit.smallestSvgText === null ? '' : `, chart text from ${audit.smallestSvgText} px`;
  return `${type.name} at ${audit.viewport.width} px: ${audit.status}, ${audit.scrollHeight} px tall${chart}, ${axe}${audit.problems.length ? `, problems: ${audit.problems.join('; ')}` : ''}`;
}
