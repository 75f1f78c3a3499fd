/** The badge: well-formed SVG, sized for 1× and 2×, its words readable and its partial star exact. */
import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { badgeSvg, badgeWords, filledWidth, groupDigits } from '../../../src/domain/widget/badge.ts';

/** The elements of an SVG as a well-formedness checking parser reads them (it throws on any error). */
function elements(svg: string): { name: string; attributes: Record<string, string>; text: string }[] {
  const parser = new SaxesParser({ xmlns: true });
  const found: { name: string; attributes: Record<string, string>; text: string }[] = [];
  const open: { text: string }[] = [];
  parser.on('opentag', (tag) => {
    const element = { name: tag.local, attributes: Object.fromEntries(Object.entries(tag.attributes).map(([name, attr]) => [name, attr.value])), text: '' };
    found.push(element);
    open.push(element);
  });
  parser.on('text', (text) => {
    const current = open.at(-1);
    if (current) current.text += text;
  });
  parser.on('closetag', () => open.pop());
  parser.write(svg).close();
  return found;
}

const input = { businessName: 'Acme & Sons <Roofing>', ratingValue: 4.18, reviewCount: 1234 };

describe('badgeSvg', () => {
  it('is well-formed SVG with an explicit size matching its viewBox', () => {
    const [root] = elements(badgeSvg(input));
    expect(root?.name).toBe('svg');
    const { width, height, viewBox } = root?.attributes ?? {};
    expect(viewBox).toBe(`0 0 ${width} ${height}`);
    expect(Number(width)).toBeGreaterThan(100);
    expect(Number(height)).toBe(28);
  });

  it('says the rating and count as text and in its title, the name escaped', () => {
    const svg = badgeSvg(input);
    const parts = elements(svg);
    expect(parts.find((e) => e.name === 'title')?.text).toBe('Acme & Sons <Roofing>: Rated 4.2 out of 5 from 1,234 reviews');
    expect(parts.filter((e) => e.name === 'text').map((e) => e.text)).toEqual(['4.2', '1,234 reviews']);
    expect(svg).toContain('Acme &amp; Sons &lt;Roofing&gt;');
  });

  it('fills four stars and a fifth of the fifth for 4.2', () => {
    // Stars of 16 px with 2 px between them: four whole ones take 72 px, 0.2 of the fifth 3.2 px.
    expect(filledWidth(4.2)).toBe(75.2);
    expect(filledWidth(5)).toBe(88);
    expect(filledWidth(1)).toBe(18);
    expect(filledWidth(null)).toBe(0);
    const clip = elements(badgeSvg({ ...input, ratingValue: 4.2 })).find((e) => e.name === 'rect' && e.attributes.height === '28' && e.attributes.x === '0');
    expect(Number(clip?.attributes.width)).toBe(8 + 75.2);
  });

  it('says so when there are no reviews', () => {
    const parts = elements(badgeSvg({ businessName: 'New Roofing', ratingValue: null, reviewCount: 0 }));
    expect(parts.filter((e) => e.name === 'text').map((e) => e.text)).toEqual(['No reviews yet']);
    expect(badgeWords({ businessName: '', ratingValue: 5, reviewCount: 1 }).count).toBe('1 review');
  });

  it('gives the same bytes for the same input, other bytes for another rating or count', () => {
    expect(badgeSvg(input)).toBe(badgeSvg({ ...input }));
    expect(badgeSvg(input)).not.toBe(badgeSvg({ ...input, ratingValue: 4.3 }));
    expect(badgeSvg(input)).not.toBe(badgeSvg({ ...input, reviewCount: 1235 }));
  });

  it('groups digits without locale data', () => {
    expect([0, 999, 1000, 123456, 1234567].map(groupDigits)).toEqual(['0', '999', '1,000', '123,456', '1,234,567']);
  });
});
