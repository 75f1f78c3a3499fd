/**
 * The widget and the iframe embed on a business's own website, in a real browser
 * (Debian's Chromium through playwright-core): a host page served from another
 * origin (a second server on another port) with a strict Content-Security-Policy
 * that allows only the reviews server's origin. Both show the reviews the search
 * gives, with no console error, failed request or CSP violation; the host's CSS does
 * not reach into the widget, and the widget's does not reach the host's elements;
 * a wrong attribute shows a readable message; axe-core finds no serious or critical
 * violation on /embed. Screenshots go to tmp/screenshots/ (printed).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateContent, writeContent } from '../../bench/generate-content.ts';
import { buildSite, isBuildCurrent } from '../../src/build/build-site.ts';
import { siteUrls } from '../../src/domain/site-urls.ts';
import { launchChromium, watchProblems } from '../support/browser.ts';
import { PROJECT_ROOT, TEST_SITE_URL } from '../support/build.ts';
import { rawRequest } from '../support/http.ts';
import { startServer, type RunningServer } from '../support/server.ts';

const SCREENSHOTS = path.join(PROJECT_ROOT, 'tmp/screenshots');
const AXE_SOURCE = readFileSync(path.join(PROJECT_ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8');
const urls = siteUrls(TEST_SITE_URL);

/** CSS a careless host page might have: it must change nothing inside the widget. */
const HOSTILE_CSS = `
* { font-family: "Comic Sans MS", cursive !important; letter-spacing: 3px; }
p, li, a, span, time { color: rgb(255, 0, 0); font-size: 30px; text-transform: uppercase; }
ul { list-style: square; padding: 40px; }
.w, .m, .x, .t, .stars, .head, .big { border: 5px solid lime; background: yellow; display: inline; }
reviews-widget { color: rgb(0, 0, 255); font-size: 9px; line-height: 3; }
`;

let server: RunningServer;
let host: Server;
let hostUrl: string;
let browser: Browser;

/** The host site: pages and a stylesheet, every page under a strict CSP naming only the reviews server. */
function hostPage(body: string, css: string): { html: string; css: string } {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host</title><link rel="stylesheet" href="/host.css"></head><body>${body}</body></html>`;
  return { html, css };
}

function startHost(origin: string): Promise<string> {
  const pages = new Map<string, { html: string; css: string }>();
  const script = `<script src="${origin}/widget.js" async></script>`;
  const probes = '<p id="probe-p" class="m">Host text</p><ul class="stars"><li class="x"><a class="t" href="#">host link</a></li></ul><div class="w head">host box</div>';
  pages.set('/widget', hostPage(`<h1>Our roofing company</h1>${probes}<reviews-widget limit="3" min_rating="4"></reviews-widget>${script}`, HOSTILE_CSS));
  pages.set('/widget-plain', hostPage(`<h1>Our roofing company</h1><reviews-widget limit="3" min_rating="4"></reviews-widget>${script}`, ''));
  pages.set('/probes-alone', hostPage(`<h1>Our roofing company</h1>${probes}`, HOSTILE_CSS));
  pages.set('/iframe', hostPage(`<h1>Our roofing company</h1><iframe src="${origin}/embed?limit=4&amp;sort=best" title="Customer reviews" width="400" height="700"></iframe><img src="${origin}/badge.svg" alt="Our rating">`, HOSTILE_CSS));
  pages.set('/widget-bad', hostPage(`<h1>Our roofing company</h1><reviews-widget limit="500" sort="random"></reviews-widget>${script}`, HOSTILE_CSS));
  const policy = `default-src 'none'; script-src ${origin}; connect-src ${origin}; frame-src ${origin}; img-src ${origin}; style-src 'self'`;
  host = createServer((req, res) => {
    const [pathname = '/', search = ''] = (req.url ?? '/').split('?');
    if (pathname === '/host.css') {
      res.writeHead(200, { 'Content-Type': 'text/css' });
      return void res.end(pages.get(`/${search}`)?.css ?? '');
    }
    const page = pages.get(pathname);
    if (!page) return void res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': policy });
    // The stylesheet link names the page, so each page gets its own host CSS.
    res.end(page.html.replace('href="/host.css"', `href="/host.css?${pathname.slice(1)}"`));
  });
  return new Promise((resolve) => host.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(host.address() as AddressInfo).port}`)));
}

beforeAll(async () => {
  const contentDir = path.join(PROJECT_ROOT, 'tmp/test-content/widget-browser');
  writeContent(contentDir, generateContent(30, 7));
  const build = { projectRoot: PROJECT_ROOT, contentDir, siteUrl: TEST_SITE_URL, outDir: path.join(PROJECT_ROOT, 'tmp/test-builds/widget-browser'), stdio: 'pipe' as const };
  if (!isBuildCurrent(build)) await buildSite(build);
  [server, browser] = await Promise.all([startServer(build.outDir), launchChromium()]);
  hostUrl = await startHost(server.url);
  mkdirSync(SCREENSHOTS, { recursive: true });
  console.log(`Screenshots: ${SCREENSHOTS}`);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await new Promise((done) => (host ? host.close(done) : done(undefined)));
});

/** A page of the host that records CSP violations in every frame (the recorder runs outside the page's CSP). */
async function openHost(pagePath: string): Promise<{ page: Page; problems: string[]; violations: () => Promise<string[]> }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
  const problems = watchProblems(page);
  const response = await page.goto(hostUrl + pagePath, { waitUntil: 'load' });
  expect(response?.status()).toBe(200);
  const violations = async () => {
    const all: string[] = [];
    for (const frame of page.frames()) all.push(...(await frame.evaluate(() => (window as unknown as { cspViolations?: string[] }).cspViolations ?? [])));
    return all;
  };
  return { page, problems: problems.list, violations };
}

async function searchIds(query: string): Promise<string[]> {
  return (JSON.parse((await rawRequest(`${server.url}/api/reviews/search?${query}`)).text) as { reviews: { id: string }[] }).reviews.map((r) => r.id);
}

/** What the widget shows, read through its shadow root. */
function widgetView(page: Page, selector = 'reviews-widget') {
  return page.evaluate((sel) => {
    const element = document.querySelector(sel) as HTMLElement;
    const root = element.shadowRoot as ShadowRoot;
    const style = (node: Element | null) => {
      if (!node) return null;
      const s = getComputedStyle(node);
      return { color: s.color, fontFamily: s.fontFamily, fontSize: s.fontSize, letterSpacing: s.letterSpacing, textTransform: s.textTransform, border: s.borderTopWidth, background: s.backgroundColor, display: s.display, listStyle: s.listStyleType };
    };
    return {
      state: element.dataset.state,
      links: [...root.querySelectorAll('li a')].map((a) => ({ href: (a as HTMLAnchorElement).href, target: a.getAttribute('target'), rel: a.getAttribute('rel') })),
      text: (root.querySelector('.w') as HTMLElement).innerText,
      styles: { box: style(root.querySelector('.w')), excerpt: style(root.querySelector('.x')), meta: style(root.querySelector('.m')), title: style(root.querySelector('.t')), list: style(root.querySelector('ul')) },
    };
  }, selector);
}

function hostProbes(page: Page) {
  return page.evaluate(() =>
    ['#probe-p', 'ul.stars', 'li.x', 'a.t', 'div.w'].map((sel) => {
      const s = getComputedStyle(document.querySelector(sel) as Element);
      return [sel, s.color, s.fontFamily, s.fontSize, s.position, s.display, s.borderTopWidth, s.backgroundColor, s.listStyleType, s.padding, s.margin, s.overflow, s.textDecorationLine].join(' | ');
    }),
  );
}

/** axe-core's serious and critical violations on the page (shadow roots included), all of them printed. */
async function seriousAxeViolations(page: Page, label: string): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate(() => (window as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> } }).axe.run());
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}, ${v.nodes.length})`);
  console.info(`axe ${label}: ${results.violations.length} violations, ${serious.length} serious or critical ${JSON.stringify(results.violations.map((v) => `${v.id}:${v.impact}`))}`);
  return serious;
}

describe('the widget on another origin under a strict CSP', () => {
  it('shows the rating and the reviews the search gives, with no error and no CSP violation', async () => {
    const { page, problems, violations } = await openHost('/widget');
    await page.waitForFunction(() => (document.querySelector('reviews-widget') as HTMLElement | null)?.dataset.state === 'ready');
    const view = await widgetView(page);
    const expected = await searchIds('min_rating=4&limit=3');
    expect(expected.length).toBe(3);
    expect(view.links.map((link) => link.href)).toEqual(expected.map((id) => urls.reviewPage(id)));
    for (const link of view.links) expect([link.target, link.rel]).toEqual(['_blank', 'noopener']);
    const dataset = JSON.parse((await rawRequest(`${server.url}/reviews.json`)).text);
    expect(view.text).toContain(dataset.aggregate_rating.rating_value.toFixed(1));
    expect(view.text).toContain(`${dataset.aggregate_rating.review_count} reviews`);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'widget-on-host-1280.png'), fullPage: true });
    expect(problems).toEqual([]);
    expect(await violations()).toEqual([]);
    // No cookie was set by the widget's origin.
    expect(await page.context().cookies(server.url)).toEqual([]);
    await page.close();
  });

  it("keeps the host's CSS out and its own in", async () => {
    const hostile = await openHost('/widget');
    const plain = await openHost('/widget-plain');
    const alone = await openHost('/probes-alone');
    for (const { page } of [hostile, plain]) {
      await page.waitForFunction(() => (document.querySelector('reviews-widget') as HTMLElement | null)?.dataset.state === 'ready');
    }
    const [inHostile, inPlain] = [await widgetView(hostile.page), await widgetView(plain.page)];
    // Inside: the widget looks the same under the hostile CSS as on a page with none.
    expect(inHostile.styles).toEqual(inPlain.styles);
    expect(inHostile.styles.excerpt?.fontFamily).not.toContain('Comic Sans');
    expect(inHostile.styles.excerpt?.color).toBe('rgb(31, 35, 40)');
    // Outside: the host's elements named like the widget's classes look as they do without the widget.
    expect(await hostProbes(hostile.page)).toEqual(await hostProbes(alone.page));
    for (const { page } of [hostile, plain, alone]) await page.close();
  });

  it.each([390, 1280])('passes axe-core (no serious or critical violation) and fits %i px', async (width) => {
    // axe is injected into the host page, whose CSP would refuse it: this context bypasses CSP for it.
    const context = await browser.newContext({ bypassCSP: true, viewport: { width, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${hostUrl}/widget-plain`, { waitUntil: 'load' });
    await page.waitForFunction(() => (document.querySelector('reviews-widget') as HTMLElement | null)?.dataset.state === 'ready');
    const serious = await seriousAxeViolations(page, `widget @${width}`);
    expect(serious).toEqual([]);
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
    await page.screenshot({ path: path.join(SCREENSHOTS, `widget-plain-${width}.png`), fullPage: true });
    await context.close();
  });

  it('shows a readable message for wrong attributes instead of breaking', async () => {
    const { page, problems, violations } = await openHost('/widget-bad');
    await page.waitForFunction(() => (document.querySelector('reviews-widget') as HTMLElement | null)?.dataset.state === 'error');
    const { text } = await widgetView(page);
    expect(text).toContain('These reviews cannot be shown.');
    expect(text).toContain('limit must be a whole number from 1 to 20; got "500".');
    expect(text).toContain('sort must be newest or best; got "random".');
    // The browser reports the 400 itself; nothing else goes wrong.
    expect(problems.filter((problem) => !problem.includes('400'))).toEqual([]);
    expect(await violations()).toEqual([]);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'widget-bad-attributes-1280.png') });
    await page.close();
  });
});

describe('the iframe embed and the badge on another origin under a strict CSP', () => {
  it('shows the reviews the search gives, links to their pages in a new tab, the badge loads; no error, no violation', async () => {
    const { page, problems, violations } = await openHost('/iframe');
    const frame = page.frames().find((f) => f.url().startsWith(`${server.url}/embed`));
    expect(frame).toBeDefined();
    const links = await frame!.evaluate(() => [...document.querySelectorAll('h2 a')].map((a) => [(a as HTMLAnchorElement).href, a.getAttribute('target'), a.getAttribute('rel')]));
    const expected: string[] = [];
    for (const rating of [5, 4, 3, 2, 1]) expected.push(...(await searchIds(`rating=${rating}&limit=100`)));
    expect(links).toEqual(expected.slice(0, 4).map((id) => [urls.reviewPage(id), '_blank', 'noopener']));
    expect(await frame!.evaluate(() => document.scripts.length)).toBe(0);
    const badge = await page.evaluate(() => {
      const img = document.querySelector('img') as HTMLImageElement;
      return { complete: img.complete, width: img.naturalWidth, height: img.naturalHeight };
    });
    expect(badge.complete).toBe(true);
    expect(badge.height).toBe(28);
    expect(badge.width).toBeGreaterThan(100);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'embed-on-host-1280.png'), fullPage: true });
    expect(problems).toEqual([]);
    expect(await violations()).toEqual([]);
    await page.close();
  });

  it('draws the badge at its size at 1× and 2×, as a vector image (screenshots to compare)', async () => {
    for (const scale of [1, 2]) {
      const context = await browser.newContext({ deviceScaleFactor: scale, viewport: { width: 400, height: 100 } });
      const page = await context.newPage();
      await page.goto(`${server.url}/badge.svg`);
      const size = await page.evaluate(() => {
        const svg = document.documentElement;
        const box = svg.getBoundingClientRect();
        return { width: box.width, height: box.height, attribute: Number(svg.getAttribute('width')), texts: [...svg.querySelectorAll('text')].map((t) => t.textContent) };
      });
      expect([size.width, size.height]).toEqual([size.attribute, 28]);
      expect(size.texts.length).toBe(2);
      const file = path.join(SCREENSHOTS, `badge-${scale}x.png`);
      const png = await page.screenshot({ path: file, clip: { x: 0, y: 0, width: size.width, height: 28 } });
      // A PNG's width is at bytes 16-19: twice the pixels at 2×, drawn from the vector, not scaled up.
      expect(png.readUInt32BE(16)).toBe(Math.round(size.width * scale));
      await context.close();
    }
  });

  it.each([
    ['/embed?limit=5', 390],
    ['/embed?limit=5', 1280],
    ['/embed?limit=0', 390],
  ])('axe-core finds no serious or critical violation on %s at %i px', async (pagePath, width) => {
    // axe is injected into the page, which the embed's own CSP would refuse: this context bypasses CSP for it.
    const context = await browser.newContext({ bypassCSP: true, viewport: { width, height: 800 } });
    const page = await context.newPage();
    const problems = watchProblems(page);
    await page.goto(server.url + pagePath, { waitUntil: 'load' });
    expect(await seriousAxeViolations(page, `${pagePath} @${width}`)).toEqual([]);
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
    // The 400 page's own status is reported by the browser; nothing else may go wrong.
    expect(problems.list.filter((problem) => !(pagePath.endsWith('=0') && problem.includes('400')))).toEqual([]);
    await page.screenshot({ path: path.join(SCREENSHOTS, `embed${pagePath.replace(/[^a-z0-9]+/gi, '_')}-${width}.png`), fullPage: true });
    await context.close();
  });
});
