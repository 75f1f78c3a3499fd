/**
 * The pages as a person sees them, in a real browser (Debian's Chromium through
 * playwright-core): no sideways scrolling on a phone or a desktop, no console error
 * or failed request, the review browser's form filtering and paging without
 * JavaScript, every same-site link answering, accessibility basics. Screenshots go
 * to tmp/screenshots/ (printed) for a person to look at.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateContent, writeContent } from '../../bench/generate-content.ts';
import { buildSite, isBuildCurrent } from '../../src/build/build-site.ts';
import { accessibilityProblems, launchChromium, watchProblems } from '../support/browser.ts';
import { PROJECT_ROOT, TEST_SITE_URL } from '../support/build.ts';
import { rawRequest } from '../support/http.ts';
import { QUOTE_MIN_CONFIDENCE } from '../../src/domain/insights/quotes.ts';
import { reviewsDatasetSchema } from '../../src/domain/schemas/datasets.ts';
import { startServer, type RunningServer } from '../support/server.ts';

const SCREENSHOTS = path.join(PROJECT_ROOT, 'tmp/screenshots');
/** Three pages of the browser, a trend over several quarters, owner responses, a name with "&". */
const REVIEWS = 55;

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  const contentDir = path.join(PROJECT_ROOT, 'tmp/test-content/browser');
  writeContent(contentDir, generateContent(REVIEWS, 11));
  const build = { projectRoot: PROJECT_ROOT, contentDir, siteUrl: TEST_SITE_URL, outDir: path.join(PROJECT_ROOT, 'tmp/test-builds/browser'), stdio: 'pipe' as const };
  if (!isBuildCurrent(build)) await buildSite(build);
  [server, browser] = await Promise.all([startServer(build.outDir), launchChromium()]);
  mkdirSync(SCREENSHOTS, { recursive: true });
  console.log(`Screenshots: ${SCREENSHOTS}`);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const REVIEW_PAGE = /^\/reviews\/([^/]+)$/;

/** The server's own URL for a link: links to SITE_URL are links to this site. */
function onServer(href: string): string | undefined {
  const url = new URL(href);
  if (url.origin !== new URL(server.url).origin && url.origin !== new URL(TEST_SITE_URL).origin) return undefined;
  return `${server.url}${url.pathname}${url.search}`;
}

async function api(query: string): Promise<{ total: number; reviews: { id: string; rating: number }[] }> {
  return JSON.parse((await rawRequest(`${server.url}/api/reviews/search?${query}`)).text);
}

describe.each([
  ['phone', 390, 844],
  ['narrow phone', 320, 640],
  ['desktop', 1280, 900],
])('on a %s (%i px)', (name, width, height) => {
  it.each(['/', '/insights', '/developers', '/reviews', '/reviews?min_rating=4&page=2'])('%s fits the width, loads cleanly and meets the basics', async (pagePath) => {
    const page = await browser.newPage({ viewport: { width, height } });
    const problems = watchProblems(page);
    const response = await page.goto(server.url + pagePath, { waitUntil: 'load' });
    expect(response?.status()).toBe(200);
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
    const file = path.join(SCREENSHOTS, `${pagePath.replace(/[^a-z0-9]+/gi, '_') || '_'}-${width}.png`.replace(/^_+/, ''));
    await page.screenshot({ path: file, fullPage: true });
    expect(scrollWidth, `horizontal overflow at ${width} px (see ${file})`).toBeLessThanOrEqual(innerWidth);
    expect(problems.list).toEqual([]);
    expect(await accessibilityProblems(page)).toEqual([]);
    // Words and separators keep their spaces (Astro drops whitespace across line breaks).
    const text = await page.evaluate(() => document.body.innerText);
    expect(text).not.toMatch(/\S·|·\S/);
    if (pagePath === '/developers') {
      for (const phrase of ['described in OpenAPI 3.1', 'query, mentions_technician', 'get_review, get_insights']) expect(text).toContain(phrase);
    }
    await page.close();
  });
});

describe('the home page', () => {
  it('leads with the rating (partial stars, read out in words), the newest reviews and the surest quotes, each linking to its review', async () => {
    const dataset = reviewsDatasetSchema.parse(JSON.parse((await rawRequest(`${server.url}/reviews.json`)).text));
    const rating = dataset.aggregate_rating.rating_value as number;
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(`${server.url}/`);

    const stars = await page.$eval('.rating svg[role="img"]', (svg) => ({
      label: svg.getAttribute('aria-label'),
      filled: [...svg.querySelectorAll('svg svg')].reduce((sum, star) => sum + Number(star.getAttribute('width')) / 24, 0),
    }));
    expect(stars.label).toBe(`Rated ${rating.toFixed(2)} out of 5`);
    expect(stars.filled).toBeCloseTo(rating, 2);
    expect(await page.textContent('.rating')).toContain(`${dataset.aggregate_rating.review_count} verified reviews`);

    const cards = await page.$$eval('article.review', (articles) => articles.map((a) => a.id.replace(/^review-/, '')));
    expect(cards).toEqual(dataset.reviews.slice(0, 5).map((r) => r.id));

    const quotes = await page.$$eval('.quotes li', (items) =>
      items.map((li) => ({ text: li.querySelector('blockquote')?.textContent?.trim().replace(/^“|”$/g, ''), href: li.querySelector('figcaption a')?.getAttribute('href') })),
    );
    expect(quotes.length).toBeGreaterThan(0);
    const labelOf = (quote: (typeof quotes)[number]) =>
      dataset.reviews.find((r) => `/reviews/${r.id}` === quote.href)?.aspects.find((l) => l.excerpt === quote.text);
    for (const quote of quotes) expect(labelOf(quote)?.confidence, `${quote.href} "${quote.text}"`).toBeGreaterThanOrEqual(QUOTE_MIN_CONFIDENCE);
    expect(new Set(quotes.map((q) => q.href)).size).toBe(quotes.length);
    const surest = Math.max(...dataset.reviews.flatMap((r) => r.aspects).filter((l) => l.excerpt !== null).map((l) => l.confidence));
    expect(labelOf(quotes[0] as (typeof quotes)[number])?.confidence).toBe(surest);
    await page.close();
  });
});

describe('the review browser', () => {
  it('filters with the form and pages with its links, without JavaScript, as the search API does', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const problems = watchProblems(page);
    await page.goto(`${server.url}/reviews`);
    await page.selectOption('select[name="min_rating"]', '4');
    await page.fill('input[name="since"]', '2023-01-01');
    await Promise.all([page.waitForURL(/min_rating=4/), page.click('button[type="submit"]')]);

    // The URL holds the filters, and only them: the empty fields the form sent are dropped by a redirect.
    expect(page.url()).toBe(`${server.url}/reviews?min_rating=4&since=2023-01-01`);

    const expected = await api('min_rating=4&since=2023-01-01&limit=20');
    expect(expected.total).toBeGreaterThan(20);
    const shownIds = () => page.$$eval('article.review', (cards) => cards.map((card) => card.id.replace(/^review-/, '')));
    expect(await shownIds()).toEqual(expected.reviews.map((r) => r.id));
    expect(await page.textContent('#results')).toContain(`1–20 of ${expected.total} reviews`);
    // The form shows what was asked.
    expect(await page.inputValue('select[name="min_rating"]')).toBe('4');
    expect(await page.inputValue('input[name="since"]')).toBe('2023-01-01');

    await Promise.all([page.waitForURL(/page=2/), page.click('a[rel="next"]')]);
    const second = await api('min_rating=4&since=2023-01-01&limit=20&offset=20');
    expect(await shownIds()).toEqual(second.reviews.map((r) => r.id));
    expect(new URL(page.url()).searchParams.get('min_rating')).toBe('4');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'reviews-filtered-page2-390.png'), fullPage: true });
    expect(problems.list).toEqual([]);
    await context.close();
  });

  it('answers bad parameters with the page and a readable message, never a 5xx', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    for (const [query, status, message] of [
      ['rating=9', 400, 'rating must be a whole number from 1 to 5'],
      ['since=2024-02-30', 400, 'since must be a real calendar date'],
      ['mentions_service=chimneys', 400, 'mentions_service "chimneys" is not a service id'],
      ['page=-1', 400, 'page must be a whole number'],
      ['page=999', 404, 'page 999 is past the last page'],
      ['limit=100', 400, '"limit" is not a parameter'],
    ] as const) {
      const response = await page.goto(`${server.url}/reviews?${query}`);
      expect(response?.status(), query).toBe(status);
      expect(response?.headers()['content-type']).toBe('text/html; charset=utf-8');
      expect(await page.textContent('[role="alert"]'), query).toContain(message);
      // The form is still there, to fix the filters.
      expect(await page.$('form[role="search"]'), query).not.toBeNull();
    }
    await page.screenshot({ path: path.join(SCREENSHOTS, 'reviews-bad-parameter-390.png'), fullPage: true });
    await page.close();
  });

  it('is linked from the home page and the shared header; the insights page links each technician and service to its reviews', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${server.url}/`);
    expect(await page.$('main a[href="/reviews"]')).not.toBeNull();
    expect(await page.$('header nav a[href="/reviews"]')).not.toBeNull();
    await page.goto(`${server.url}/insights`);
    const technicianLinks = await page.$$eval('a[href^="/reviews?mentions_technician="]', (links) => links.map((a) => a.getAttribute('href')));
    const serviceLinks = await page.$$eval('a[href^="/reviews?mentions_service="]', (links) => links.map((a) => a.getAttribute('href')));
    expect(technicianLinks.length).toBeGreaterThan(0);
    expect(serviceLinks.length).toBeGreaterThan(0);
    await Promise.all([page.waitForURL(/mentions_technician=/), page.click('a[href^="/reviews?mentions_technician="]')]);
    const id = new URL(page.url()).searchParams.get('mentions_technician') as string;
    const expected = await api(`mentions_technician=${encodeURIComponent(id)}&limit=20`);
    expect(await page.textContent('#results')).toContain(String(expected.total));
    await page.close();
  });
});

describe('links', () => {
  it('every same-site link of the pages answers 200', async () => {
    const page = await browser.newPage();
    const links = new Set<string>();
    for (const pagePath of ['/', '/insights', '/developers', '/reviews', '/reviews?rating=5']) {
      await page.goto(server.url + pagePath);
      for (const href of await page.$$eval('a[href]', (anchors) => anchors.map((a) => (a as HTMLAnchorElement).href))) {
        const target = onServer(href.split('#')[0] as string);
        if (target) links.add(target);
      }
    }
    await page.close();
    expect(links.size).toBeGreaterThan(10);
    expect([...links].filter((link) => REVIEW_PAGE.test(new URL(link).pathname)).length, 'links to review pages').toBeGreaterThan(0);
    const failed: string[] = [];
    for (const link of links) {
      const res = await rawRequest(link);
      if (res.status !== 200) failed.push(`${res.status} ${link}`);
    }
    expect(failed).toEqual([]);
  });
});
