/**
 * `/badge.svg`: the rating and the number of reviews as a small SVG for a website's
 * page or a README. Vector, with an explicit size and viewBox, so it is sharp at 1×
 * and 2×; real text (with `textLength`, so it fits whatever font the reader has);
 * a `<title>` for screen readers; the fifth of a star a rating of 4.2 has drawn as
 * a partly filled star. The same rating and count give the same bytes.
 */
import { stripXmlForbidden } from '../xml-text.ts';

export interface BadgeInput {
  businessName: string;
  ratingValue: number | null;
  reviewCount: number;
}

const HEIGHT = 28;
const PAD = 8;
const STAR = 16;
const STAR_GAP = 2;
const STARS_WIDTH = 5 * STAR + 4 * STAR_GAP;
const GAP = 6;
/** Average advance of the badge's fonts per character, in px: the text is then fitted to it exactly (`textLength`). */
const RATING_CHAR = 8.4;
const COUNT_CHAR = 7;

const round = (value: number) => Math.round(value * 100) / 100;

/** A five-pointed star in a STAR × STAR box at the origin, points rounded so the bytes never vary. */
const STAR_POINTS = Array.from({ length: 10 }, (_, i) => {
  const radius = i % 2 === 0 ? STAR / 2 : STAR / 2 * 0.42;
  const angle = (Math.PI / 5) * i - Math.PI / 2;
  return `${round(STAR / 2 + radius * Math.cos(angle))},${round(STAR / 2 + 0.6 + radius * Math.sin(angle))}`;
}).join(' ');

function escapeXml(text: string): string {
  return stripXmlForbidden(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** 12345 → "12,345", the same on every machine (no locale data involved). */
export function groupDigits(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+$)/g, ',');
}

/** The words a person reads (or hears): "4.2 out of 5 from 1,234 reviews". */
export function badgeWords({ ratingValue, reviewCount }: BadgeInput): { rating: string; count: string; label: string } {
  const count = `${groupDigits(reviewCount)} ${reviewCount === 1 ? 'review' : 'reviews'}`;
  if (ratingValue === null || reviewCount === 0) return { rating: '', count: 'No reviews yet', label: 'No reviews yet' };
  const rating = ratingValue.toFixed(1);
  return { rating, count, label: `Rated ${rating} out of 5 from ${count}` };
}

/** Width of the gold part of the five stars for a rating: whole stars, then the fraction of the next one. */
export function filledWidth(ratingValue: number | null): number {
  if (ratingValue === null) return 0;
  const clamped = Math.min(5, Math.max(0, ratingValue));
  const whole = Math.floor(clamped);
  return Math.min(STARS_WIDTH, round(whole * (STAR + STAR_GAP) + (clamped - whole) * STAR));
}

export function badgeSvg(input: BadgeInput): string {
  const words = badgeWords(input);
  const ratingWidth = round(words.rating.length * RATING_CHAR);
  const countWidth = round(words.count.length * COUNT_CHAR);
  const ratingX = PAD + STARS_WIDTH + GAP;
  const countX = ratingX + (words.rating ? ratingWidth + GAP : 0);
  const width = Math.ceil(countX + countWidth + PAD);
  const stars = Array.from({ length: 5 }, (_, i) => `<polygon transform="translate(${PAD + i * (STAR + STAR_GAP)} ${(HEIGHT - STAR) / 2})" points="${STAR_POINTS}"/>`).join('');
  const title = escapeXml(`${input.businessName}: ${words.label}`);
  const baseline = HEIGHT / 2 + 4.5;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${HEIGHT}" viewBox="0 0 ${width} ${HEIGHT}" role="img" aria-labelledby="badge-title">`,
    `<title id="badge-title">${title}</title>`,
    `<defs><clipPath id="badge-fill"><rect x="0" y="0" width="${PAD + filledWidth(input.ratingValue)}" height="${HEIGHT}"/></clipPath></defs>`,
    `<rect x="0.5" y="0.5" width="${width - 1}" height="${HEIGHT - 1}" rx="4" fill="#ffffff" stroke="#d0d7de"/>`,
    `<g fill="#d0d7de">${stars}</g>`,
    `<g fill="#d98e04" clip-path="url(#badge-fill)">${stars}</g>`,
    `<g fill="#1f2328" font-family="Verdana,DejaVu Sans,Geneva,sans-serif" aria-hidden="true">`,
    words.rating ? `<text x="${ratingX}" y="${baseline}" font-size="13" font-weight="bold" textLength="${ratingWidth}" lengthAdjust="spacingAndGlyphs">${words.rating}</text>` : '',
    `<text x="${countX}" y="${baseline}" font-size="12" textLength="${countWidth}" lengthAdjust="spacingAndGlyphs">${escapeXml(words.count)}</text>`,
    '</g></svg>\n',
  ].join('');
}
