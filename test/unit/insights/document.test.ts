import { describe, expect, it } from 'vitest';
import { insightsDocument } from '../../../src/domain/insights/document.ts';
import { recurringTopics } from '../../../src/domain/insights/topics.ts';
import { validateContent } from '../../../src/domain/content/validate.ts';
import { buildSite } from '../../../src/domain/site.ts';
import type { AnalyzedAspect } from '../../../src/domain/insights/owner-corrections.ts';
import { insightsSchema } from '../../../src/domain/schemas/insights.ts';

const business = {
  path: 'business.json',
  text: JSON.stringify({
    name: 'Test Roofing',
    url: 'https://test.example',
    service_areas: [{ id: 'north', name: 'North' }],
    services: [{ id: 'gutters', name: 'Gutters', aliases: ['gutter guards'] }],
    technicians: [
      { id: 'ann', name: 'Ann Lee', aliases: ['Ann'] },
      { id: 'bob', name: 'Bob Ray', aliases: ['Bob'] },
    ],
  }),
};

const reviews = [
  ['r1', 5, '2024-01-10', 'Ann installed gutter guards. The magnet sweep was thorough.'],
  ['r2', 5, '2024-02-10', 'Ann fixed the gutter guards fast. Magnet sweep again, spotless.'],
  ['r3', 2, '2024-04-10', 'Bob did the gutter guards but left nails everywhere.'],
  ['r4', 4, '2024-07-10', 'Bob was fine on the gutter guards. The magnet sweep missed a few.'],
  ['r5', 3, '2024-07-11', 'Nothing special.'],
] as const;

// A stand-in analyzer with fixed answers, so these tests check the aggregation alone.
const labels: Record<string, AnalyzedAspect[]> = {
  r1: [{ aspect: 'cleanup', sentiment: 'positive', score: 0.6, confidence: 0.9, excerpt: 'The magnet sweep was thorough.' }],
  r2: [
    { aspect: 'cleanup', sentiment: 'positive', score: 0.9, confidence: 0.9, excerpt: 'Magnet sweep again, spotless.' },
    { aspect: 'timeliness', sentiment: 'positive', score: 0.5, confidence: 0.5, excerpt: 'Ann fixed the gutter guards fast.' },
  ],
  r3: [{ aspect: 'cleanup', sentiment: 'negative', score: -0.8, confidence: 0.8, excerpt: 'Bob did the gutter guards but left nails everywhere.' }],
  r4: [{ aspect: 'cleanup', sentiment: 'negative', score: -0.3, confidence: 0.3, excerpt: 'The magnet sweep missed a few.' }],
  r5: [],
};

function site() {
  const files = reviews.map(([id, rating, date, text]) => ({
    path: `reviews/${id}.md`,
    text: `---\nauthor: X\nrating: ${rating}\ndate: ${date}\nverified: true\nverification: invoice\nservice_area: north\n---\n${text}\n`,
  }));
  const faq = { path: 'faq.md', text: '## Do you offer financing?\nYes, ask us.\n' };
  const result = validateContent({ business, reviews: files, faq, summary: { path: 'summary.md', text: 'We are a family firm.\n' } });
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return buildSite(result.content, 'https://site.example', (text) => {
    const id = reviews.find(([, , , t]) => t === text)?.[0];
    return id ? labels[id] ?? [] : [];
  });
}

describe('insights document', () => {
  const doc = insightsDocument(site());

  it('matches its schema and is deterministic', () => {
    expect(insightsSchema.safeParse(doc).success).toBe(true);
    expect(JSON.stringify(insightsDocument(site()))).toBe(JSON.stringify(doc));
  });

  it('counts aspects, scores them and trends them by quarter', () => {
    const cleanup = doc.aspects.find((a) => a.aspect === 'cleanup');
    expect(cleanup).toMatchObject({ mentions: 4, positive: 2, neutral: 0, negative: 2, score: 0 });
    expect(cleanup?.trend.map((t) => [t.quarter, t.positive, t.negative])).toEqual([
      ['2024-Q1', 2, 0],
      ['2024-Q2', 0, 1],
      ['2024-Q3', 0, 1],
    ]);
    // The strongest quote of each polarity first; r4's label is too unsure (0.3) to quote.
    expect(cleanup?.highlights.map((h) => h.review_id)).toEqual(['r2', 'r1', 'r3']);
    expect(doc.aspects.find((a) => a.aspect === 'warranty')).toMatchObject({ mentions: 0, score: 0, trend: [], highlights: [] });
  });

  it('rates technicians, services and areas from the reviews that mention them', () => {
    expect(doc.entities.technicians).toEqual([
      expect.objectContaining({ id: 'ann', mentions: 2, average_rating: 5, review_ids: ['r2', 'r1'] }),
      expect.objectContaining({ id: 'bob', mentions: 2, average_rating: 3, review_ids: ['r4', 'r3'] }),
    ]);
    expect(doc.entities.services[0]).toMatchObject({ id: 'gutters', mentions: 4, average_rating: 4 });
    expect(doc.entities.service_areas[0]).toMatchObject({ id: 'north', mentions: 5, average_rating: 3.8 });
  });

  it('answers questions from the evidence, after the editorial ones', () => {
    expect(doc.faq[0]).toEqual({ question: 'Do you offer financing?', answer: 'Yes, ask us.', source: 'editorial', review_ids: [] });
    // Ann and Bob are named in 2 reviews each and cleanup in 4 sentences: too few to rank or answer from.
    expect(doc.faq.map((f) => f.question)).toEqual([
      'Do you offer financing?',
      'What do customers think overall?',
      'Which services get the best reviews?',
      'Which areas do they serve?',
    ]);
    expect(doc.faq[2]?.answer).toBe('Gutters (3 of 4 reviews give 4 or 5 stars; at least 30% with 95% confidence; 4.00 average).');
    expect(doc.rankings.technicians).toEqual([]);
    expect(doc.rankings.most_praised).toEqual([]);
  });

  it('keeps the editorial summary and adds generated highlights', () => {
    expect(doc.summary.text).toBe('We are a family firm.');
    expect(doc.summary.highlights[0]).toBe('Rated 3.80 out of 5 from 5 verified reviews; 40% give five stars.');
  });

  it('finds recurring phrases, counted once per review', () => {
    expect(doc.topics.slice(0, 2)).toEqual([
      { phrase: 'gutter guards', count: 4, review_ids: ['r4', 'r3', 'r2', 'r1'] },
      { phrase: 'magnet sweep', count: 3, review_ids: ['r4', 'r2', 'r1'] },
    ]);
  });
});

describe('recurring topics', () => {
  it('drops phrases that only occur inside a longer one and ignores stopword edges', () => {
    const make = (id: string, text: string) => ({ id, text, title: null }) as never;
    const topics = recurringTopics([make('a', 'new drip edge flashing'), make('b', 'the drip edge flashing'), make('c', 'drip edge flashing is')], {
      minCount: 3,
      limit: 10,
      idsPerTopic: 5,
    });
    expect(topics.map((t) => t.phrase)).toEqual(['drip edge flashing']);
  });
});
