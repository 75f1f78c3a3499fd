/**
 * Deterministic generator of believable review content for benchmarks (and tests
 * that need many reviews): a business.json and N review files that pass the
 * content checks. The same count and seed always give the same bytes.
 *
 *   node bench/generate-content.ts --count 10000 --out tmp/gen-10k [--seed 1]
 *
 * Texts are assembled from a roofing phrase bank with names, aliases, services,
 * numbers and places mixed in, so that search, mention detection and insights
 * have realistic work to do. The vocabulary is smaller than real reviews' (a few
 * thousand words rather than tens of thousands).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { ContentFiles } from '../src/domain/content/validate.ts';
import { seededRandom } from '../src/domain/seeded-random.ts';

export const GENERATED_BUSINESS = {
  name: 'Brightline Roofing & Exteriors',
  schema_type: 'RoofingContractor',
  url: 'https://brightline-roofing.example',
  telephone: '+1-555-0199',
  email: 'office@brightline-roofing.example',
  address: { street: '88 Cedar Mill Rd', locality: 'Springfield', region: 'IL', postal_code: '62704', country: 'US' },
  service_areas: [
    { id: 'springfield', name: 'Springfield, IL' },
    { id: 'chatham', name: 'Chatham, IL' },
    { id: 'rochester', name: 'Rochester, IL' },
    { id: 'sherman', name: 'Sherman, IL' },
    { id: 'riverton', name: 'Riverton, IL' },
    { id: 'petersburg', name: 'Petersburg, IL' },
  ],
  services: [
    { id: 'roof-replacement', name: 'Roof replacement', aliases: ['reroof', 'new roof', 'tear-off'] },
    { id: 'roof-repair', name: 'Roof repair', aliases: ['leak repair', 'roof leak', 'patch job'] },
    { id: 'storm-damage', name: 'Storm damage and insurance claims', aliases: ['hail damage', 'wind damage', 'insurance claim'] },
    { id: 'gutters', name: 'Gutters and gutter guards', aliases: ['gutter guards', 'seamless gutters', 'downspouts'] },
    { id: 'roof-inspection', name: 'Roof inspection', aliases: ['drone inspection', 'roof certification'] },
    { id: 'skylights', name: 'Skylights and solar tubes', aliases: ['skylight', 'solar tube'] },
  ],
  technicians: [
    { id: 'tomas-villarreal', name: 'Tomás Villarreal', aliases: ['Tomás', 'Tomas'] },
    { id: 'zoe-park', name: 'Zoë Park', aliases: ['Zoë', 'Zoe'] },
    { id: 'brody-kessler', name: 'Brody Kessler', aliases: ['Brody'] },
    { id: 'keisha-downs', name: 'Keisha Downs', aliases: ['Keisha'] },
    { id: 'danny-nguyen', name: 'Danny Nguyen', aliases: ['Danny'] },
    { id: 'ana-lucia-reyes', name: 'Ana Lucía Reyes', aliases: ['Ana Lucía'] },
    { id: 'marcus-webb', name: 'Marcus Webb', aliases: ['Marcus'] },
    { id: 'priya-shah', name: 'Priya Shah', aliases: ['Priya'] },
  ],
};

const FIRST_NAMES = ['Gloria', 'Ray', 'Harold', 'Mei', 'Jordan', 'Luis', 'Renée', 'Omar', 'Beth', 'Chidi', 'Sofía', 'Grant', 'Ines', 'Walt', 'Noor', 'Dale', 'Yuki', 'Pat', 'Björn', 'Carla'];
const SURNAME_INITIALS = 'ABCDEFGHJKLMNOPRSTVWZ';
const SOURCES = ['google', 'website', 'facebook', 'yelp', 'nextdoor'];
const VERIFICATIONS = ['invoice', 'job-record', 'phone', 'email'];
const HOUSES = ['ranch', 'two-story', 'split-level', 'bungalow', 'farmhouse', 'duplex', 'cape cod', 'townhouse'];
const STREETS = ['Oak', 'Maple', 'Walnut', 'Lincoln', 'Jefferson', 'Cedar', 'Prairie', 'Mill', 'Church', 'Elm', 'Sangamon', 'Lakeshore'];
const SHINGLES = ['architectural shingles', 'three-tab shingles', 'standing seam metal', 'impact-rated shingles', 'cedar shakes', 'slate-look shingles'];
const COLORS = ['charcoal', 'weathered wood', 'driftwood', 'onyx black', 'pewter gray', 'barkwood', 'hickory', 'slate blue'];

const OPENINGS: Record<'good' | 'mixed' | 'bad', string[]> = {
  good: [
    'We called about {problem} and they were out the next morning.',
    'After {problem}, three companies gave us quotes and this crew was the only one that explained every line.',
    'Our {house} on {street} Street needed help after {problem}.',
    'I found them through a neighbor after {problem}.',
  ],
  mixed: [
    'They handled {problem} on our {house}, mostly well.',
    'Decent job overall after {problem}, with a few hiccups.',
    'We hired them for {problem}; the result is fine but getting there was slow.',
  ],
  bad: [
    'We hired them after {problem} and regret it.',
    'Months after {problem} we are still waiting for this to be finished.',
    'Booked them for {problem} on our {house}; it did not go well.',
  ],
};
const PROBLEMS = ['a hail storm in {month}', 'water stains on the ceiling', 'a branch through the roof', 'gutters that overflowed every rain', 'a wind storm that tore off shingles', 'the inspection our insurer asked for', 'a musty smell in the attic', 'a dripping skylight'];
const WORK: Record<string, string[]> = {
  'roof-replacement': ['{tech} and the crew did a full tear-off and put on {shingle} in {color}, about {squares} squares.', 'The reroof took {days} days and they replaced {sheets} sheets of rotten decking.'],
  'roof-repair': ['{tech} traced the roof leak to cracked flashing around the chimney and resealed it.', 'The patch job around the vent boot took an afternoon and cost ${price}.'],
  'storm-damage': ['{tech} met the adjuster, documented the hail damage with photos and the insurance claim was approved in {days} days.', 'They walked us through the insurance claim and only charged the deductible.'],
  gutters: ['{tech} installed seamless gutters with gutter guards and moved two downspouts away from the foundation.', 'The new gutters are {feet} feet of 6-inch aluminum and they hang straight.'],
  'roof-inspection': ['{tech} flew a drone inspection and showed us every bad shingle on a tablet.', 'The roof certification was ready the same week for our sale on {street} Street.'],
  skylights: ['{tech} swapped the old skylight for a new one with proper flashing.', 'They added a solar tube in the hallway; it is bright even on cloudy days.'],
};
const DETAILS: Record<'good' | 'mixed' | 'bad', string[]> = {
  good: ['Cleanup was excellent; they ran a magnet over the lawn and found every nail.', 'The price matched the estimate to the dollar.', 'They showed up on time every day and texted before arriving.', 'The warranty paperwork came the same week.', 'The crew was polite and protected the flower beds with tarps.', 'Communication was great from the first call to the final walk-through.'],
  mixed: ['The price went up ${extra} after they found soft decking, which they did explain.', 'We had to call twice to get the final invoice.', 'They left a few nails in the driveway but came back when asked.', 'The start date slipped by {days} days because of rain.'],
  bad: ['Nails all over the driveway and one in my tire.', 'The roof still leaks when the wind blows from the west.', 'Nobody returned calls for {days} days.', 'The final bill was ${extra} more than the estimate with no explanation.', 'They damaged the gutters and never fixed them.'],
};
const CLOSINGS: Record<'good' | 'mixed' | 'bad', string[]> = {
  good: ['Highly recommend.', 'We will use them again for the garage.', 'Five stars from the whole family.', 'Ask for {tech}, you will not regret it.'],
  mixed: ['Would probably hire them again, with clearer terms.', 'Good work, average service.', 'It holds up so far.'],
  bad: ['Look elsewhere.', 'I cannot recommend them.', 'Still waiting for a callback.'],
};
const TITLES: Record<'good' | 'mixed' | 'bad', string[]> = {
  good: ['Fast repair before the storm', 'Great crew, spotless cleanup', 'Honest estimate and quality work', 'New roof in {days} days', 'Finally dry!'],
  mixed: ['Good roof, slow paperwork', 'OK in the end', 'Fine work, some delays'],
  bad: ['Still leaking', 'Poor communication', 'Not worth the money'],
};
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];


type Rng = () => number;
const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)] as T;
const between = (rng: Rng, low: number, high: number) => low + Math.floor(rng() * (high - low + 1));

function isoDay(epochDay: number): string {
  return new Date(epochDay * 86_400_000).toISOString().slice(0, 10);
}

function ratingOf(rng: Rng): number {
  const r = rng();
  return r < 0.55 ? 5 : r < 0.75 ? 4 : r < 0.85 ? 3 : r < 0.92 ? 2 : 1;
}

function review(rng: Rng): string {
  const rating = ratingOf(rng);
  const tone = rating >= 4 ? 'good' : rating === 3 ? 'mixed' : 'bad';
  const service = pick(rng, GENERATED_BUSINESS.services);
  const technician = pick(rng, GENERATED_BUSINESS.technicians);
  const techName = rng() < 0.5 ? technician.name : rng() < 0.7 ? pick(rng, technician.aliases) : 'the foreman';
  const fill = (template: string) =>
    template
      .replace('{problem}', pick(rng, PROBLEMS))
      .replace('{month}', pick(rng, MONTHS))
      .replace('{house}', pick(rng, HOUSES))
      .replace('{street}', pick(rng, STREETS))
      .replace('{tech}', techName)
      .replace('{shingle}', pick(rng, SHINGLES))
      .replace('{color}', pick(rng, COLORS))
      .replace('{squares}', String(between(rng, 14, 48)))
      .replace('{sheets}', String(between(rng, 2, 30)))
      .replace('{days}', String(between(rng, 2, 21)))
      .replace('{feet}', String(between(rng, 60, 260)))
      .replace('{price}', String(between(rng, 180, 1900)))
      .replace('{extra}', String(between(rng, 150, 4200)))
      .replace(/^./, (c) => c.toUpperCase());
  const sentences = [fill(pick(rng, OPENINGS[tone])), fill(pick(rng, WORK[service.id] as string[]))];
  const details = DETAILS[tone].filter(() => rng() < 0.4).slice(0, 3);
  sentences.push(...(details.length ? details : [pick(rng, DETAILS[tone])]).map(fill));
  sentences.push(fill(pick(rng, CLOSINGS[tone])));
  const body = rng() < 0.25 ? `${sentences.slice(0, 2).join(' ')}\n\n${sentences.slice(2).join(' ')}` : sentences.join(' ');

  // Spread over 2015–2025 with more reviews in later years, as a growing business gets.
  const start = Date.UTC(2015, 0, 1) / 86_400_000;
  const span = Date.UTC(2025, 11, 31) / 86_400_000 - start;
  const day = start + Math.floor(Math.sqrt(rng()) * span);
  const lines = [
    '---',
    `author: ${JSON.stringify(`${pick(rng, FIRST_NAMES)} ${SURNAME_INITIALS[between(rng, 0, SURNAME_INITIALS.length - 1)]}.`)}`,
    `rating: ${rating}`,
    `date: ${isoDay(day)}`,
    `verified: ${rng() < 0.97}`,
    `verification: ${pick(rng, VERIFICATIONS)}`,
  ];
  if (rng() < 0.8) lines.push(`source: ${pick(rng, SOURCES)}`);
  if (rng() < 0.7) lines.push(`title: ${JSON.stringify(fill(pick(rng, TITLES[tone])))}`);
  if (rng() < 0.8) lines.push(`service_area: ${pick(rng, GENERATED_BUSINESS.service_areas).id}`);
  if (rng() < 0.5) lines.push(`services: [${service.id}]`);
  if (rng() < 0.3) lines.push(`technicians: [${technician.id}]`);
  if (rng() < 0.3) {
    const answer = tone === 'bad' ? 'We are sorry to read this and will call you this week to make it right.' : `Thank you! ${technician.name.split(' ')[0]} will be glad to hear it.`;
    lines.push('response:', `  date: ${isoDay(day + between(rng, 0, 20))}`, `  text: ${JSON.stringify(answer)}`);
  }
  lines.push('---', body, '');
  return lines.join('\n');
}

/** `count` review files and a business.json, as `readContentFiles` would return them. */
export function generateContent(count: number, seed = 1): ContentFiles {
  const rng = seededRandom(seed);
  const width = Math.max(6, String(count).length);
  return {
    business: { path: 'business.json', text: `${JSON.stringify(GENERATED_BUSINESS, null, 2)}\n` },
    reviews: Array.from({ length: count }, (_, i) => ({
      path: `reviews/r${String(i + 1).padStart(width, '0')}.md`,
      text: review(rng),
    })),
  };
}

/** Writes generated content as a content folder (replacing what was there). */
export function writeContent(dir: string, files: ContentFiles): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, 'reviews'), { recursive: true });
  for (const file of [files.business, ...files.reviews]) {
    if (file) writeFileSync(path.join(dir, file.path), file.text);
  }
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { count: { type: 'string', default: '1000' }, out: { type: 'string' }, seed: { type: 'string', default: '1' } } });
  const count = Number(values.count);
  if (!Number.isInteger(count) || count < 0 || !values.out) {
    console.error('usage: node bench/generate-content.ts --count N --out DIR [--seed S]');
    process.exit(1);
  }
  writeContent(path.resolve(values.out), generateContent(count, Number(values.seed)));
  console.log(`Wrote ${count} reviews to ${values.out}.`);
}
