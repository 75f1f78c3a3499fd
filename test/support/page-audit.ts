/**
 * One page at one viewport, loaded in Chromium (browser.ts) and checked as a visitor
 * meets it: its status, no sideways scroll of the document and no box that scrolls
 * sideways inside it, no console error, uncaught exception or failed request, chart
 * text big enough to read, and axe-core's serious and critical violations. A full-page
 * screenshot goes to the folder given. The caller decides what to assert, so one
 * audit gives every figure of a failure at once.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { AxeResults } from 'axe-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface Viewport {
  width: number;
  height: number;
}

export interface PageAuditOptions {
  viewport: Viewport;
  /** The status the page is meant to answer with (404 for the not-found page); its own load then counts as no failure. */
  status?: number;
  /** Where the full-page screenshot goes; none when absent. */
  screenshotDir?: string;
  /** The screenshot's file name, without extension. */
  name?: string;
}

export interface AxeFinding {
  id: string;
  impact: string;
  help: string;
  /** CSS selectors of the first few elements at fault. */
  targets: string[];
}

export interface PageAudit {
  url: string;
  viewport: Viewport;
  status: number | undefined;
  /** document.documentElement.scrollWidth: at most the viewport's width when nothing overflows. */
  scrollWidth: number;
  /** The page's full height, in CSS pixels. */
  scrollHeight: number;
  /** Elements (by a short selector) whose content scrolls sideways inside them. */
  innerScrollers: string[];
  /** Table cells (by their text) that reach past the viewport's right edge: a column out of sight. */
  cellsOutside: string[];
  /** The smallest rendered font size of any visible text in an inline SVG (a chart's labels), in CSS pixels; null without such text. */
  smallestSvgText: number | null;
  /** Console errors, uncaught exceptions, failed and 4xx/5xx requests, except the page's own expected status. */
  problems: string[];
  /** axe-core's serious and critical violations. */
  violations: AxeFinding[];
  screenshot: string | null;
}

const SERIOUS = new Set(['serious', 'critical']);

export async function auditPage(browser: Browser, url: string, options: PageAuditOptions): Promise<PageAudit> {
  const { viewport, status: expected = 200 } = options;
  const page = await browser.newPage({ viewport });
  try {
    const problems: string[] = [];
    const ownLoad = (resourceUrl: string | undefined, status: number) => resourceUrl === url && status === expected;
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      // Chromium logs a document answered with 4xx as a failed resource: expected for a 404 page.
      if (expected >= 400 && message.location().url === url && message.text().includes(`status of ${expected}`)) return;
      problems.push(`console: ${message.text()} (${message.location().url})`);
    });
    page.on('pageerror', (error) => problems.push(`exception: ${error.message}`));
    page.on('requestfailed', (request) => problems.push(`failed: ${request.url()} ${request.failure()?.errorText ?? ''}`));
    page.on('response', (response) => {
      if (response.status() >= 400 && !ownLoad(response.url(), response.status())) problems.push(`${response.status()}: ${response.url()}`);
    });

    const response = await page.goto(url, { waitUntil: 'load' });
    const measured = await measure(page);
    const screenshot = options.screenshotDir ? path.join(options.screenshotDir, `${options.name ?? fileName(url)}-${viewport.width}.png`) : null;
    if (screenshot) await page.screenshot({ path: screenshot, fullPage: true });
    return { url, viewport, status: response?.status(), ...measured, problems, violations: await axeViolations(page), screenshot };
  } finally {
    await page.close();
  }
}

function fileName(url: string): string {
  const { pathname, search } = new URL(url);
  return `${pathname}${search}`.replace(/[^a-z0-9]+/gi, '_').replace(/^_+|_+$/g, '') || 'home';
}

function measure(page: Page): Promise<Pick<PageAudit, 'scrollWidth' | 'scrollHeight' | 'innerScrollers' | 'cellsOutside' | 'smallestSvgText'>> {
  return page.evaluate(() => {
    const describe = (e: Element) => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}${e.classList.length ? `.${[...e.classList].join('.')}` : ''}`;
    const innerScrollers = [...document.body.querySelectorAll('*')]
      .filter((e) => ['auto', 'scroll'].includes(getComputedStyle(e).overflowX) && e.scrollWidth > e.clientWidth + 1)
      .map(describe);
    const cellsOutside = [...document.querySelectorAll('th, td')]
      .filter((cell) => cell.checkVisibility() && cell.getBoundingClientRect().right > window.innerWidth + 1)
      .map((cell) => cell.textContent?.trim().slice(0, 30) ?? '');
    let smallest: number | null = null;
    for (const text of document.querySelectorAll<SVGTextElement>('svg text')) {
      const svg = text.ownerSVGElement;
      if (!svg || !text.checkVisibility() || !text.textContent?.trim()) continue;
      const viewBox = svg.viewBox.baseVal;
      const scale = viewBox && viewBox.width > 0 ? svg.getBoundingClientRect().width / viewBox.width : 1;
      const size = parseFloat(getComputedStyle(text).fontSize) * scale;
      smallest = smallest === null ? size : Math.min(smallest, size);
    }
    return {
      scrollWidth: document.documentElement.scrollWidth,
      scrollHeight: document.documentElement.scrollHeight,
      innerScrollers,
      cellsOutside,
      smallestSvgText: smallest === null ? null : Math.round(smallest * 10) / 10,
    };
  });
}

async function axeViolations(page: Page): Promise<AxeFinding[]> {
  // Evaluated through the DevTools protocol, which a page's Content-Security-Policy does not
  // govern (a script tag would be refused by the embed's `default-src 'none'`).
  await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate(() => (window as unknown as { axe: { run(context: Document, options: object): Promise<AxeResults> } }).axe.run(document, { resultTypes: ['violations'] }));
  return results.violations
    .filter((v) => SERIOUS.has(v.impact ?? ''))
    .map((v) => ({ id: v.id, impact: v.impact ?? '', help: v.help, targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
}
