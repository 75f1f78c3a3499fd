/**
 * Debian's Chromium (/usr/bin/chromium, installed by .ci/run where missing) driven by
 * playwright-core: no browser is downloaded at install time. Flags as the machine
 * notes require (the closed network refuses Chromium's background connections);
 * playwright gives every launch a fresh, empty user data dir.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`No Chromium at ${CHROMIUM}: install Debian's package (apt-get install chromium; .ci/run does) or set CHROMIUM_PATH.`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** What went wrong while a page loaded: console errors, uncaught exceptions, failed or 4xx/5xx requests. */
export interface PageProblems {
  list: string[];
}

export function watchProblems(page: Page): PageProblems {
  const problems: PageProblems = { list: [] };
  page.on('console', (message) => {
    if (message.type() === 'error') problems.list.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.list.push(`exception: ${error.message}`));
  page.on('requestfailed', (request) => problems.list.push(`failed: ${request.url()} ${request.failure()?.errorText ?? ''}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.list.push(`${response.status()}: ${response.url()}`);
  });
  return problems;
}

/**
 * Accessibility basics a page must meet, measured in the page: `lang`, one h1 and no
 * skipped heading level, a label on every form field, and text contrast (WCAG AA:
 * 4.5:1, 3:1 for large text) against the background it is drawn on.
 */
export function accessibilityProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    if (!document.documentElement.lang) problems.push('html has no lang');
    const headings = [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((h) => Number(h.tagName[1]));
    if (headings.filter((level) => level === 1).length !== 1) problems.push(`expected one h1, found ${headings.filter((l) => l === 1).length}`);
    headings.forEach((level, i) => {
      const before = i === 0 ? 0 : (headings[i - 1] as number);
      if (level > before + 1) problems.push(`heading h${level} follows h${before || '(none)'}`);
    });
    for (const field of document.querySelectorAll<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>('input, select, textarea')) {
      if (field.type === 'hidden') continue;
      if (!field.labels?.length && !field.getAttribute('aria-label')) problems.push(`field ${field.name || field.id} has no label`);
    }

    const rgba = (css: string) => (css.match(/[\d.]+/g) ?? []).map(Number) as number[];
    const luminance = ([r, g, b]: number[]) => {
      const channel = (v: number) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * channel(r as number) + 0.7152 * channel(g as number) + 0.0722 * channel(b as number);
    };
    const background = (element: Element | null): number[] => {
      for (let e = element; e; e = e.parentElement) {
        const color = rgba(getComputedStyle(e).backgroundColor);
        if (color.length === 3 || (color[3] ?? 0) > 0.5) return color.slice(0, 3);
      }
      return [255, 255, 255];
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const seen = new Set<Element>();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement;
      if (!element || seen.has(element) || !node.textContent?.trim()) continue;
      seen.add(element);
      if (element.closest('svg, [aria-hidden="true"]') || !element.checkVisibility?.()) continue;
      const style = getComputedStyle(element);
      const [a, b] = [luminance(rgba(style.color)), luminance(background(element))];
      const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
      const size = parseFloat(style.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
      if (ratio < (large ? 3 : 4.5)) problems.push(`contrast ${ratio.toFixed(2)}:1 for "${node.textContent.trim().slice(0, 30)}" (${style.color} on ${background(element).join(',')})`);
    }
    return problems;
  });
}
