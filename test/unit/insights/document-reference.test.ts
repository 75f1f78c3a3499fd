/**
 * The insights document of a few hundred generated reviews against plain references:
 * what the document computes in one pass (the reviews of each entity, the aspects'
 * tallies, the quotes, the recurring phrases, the home page's quotes) computed here the
 * straightforward way (a filter per entity, a sort of every candidate, every phrase
 * against every other). A stand-in analyzer with coarse scores and confidences makes
 * many ties, so the tie-breaking rules are exercised too.
 */
import { describe, expect, it } from 'vitest';
import { generateContent } from '../../../bench/generate-content.ts';
import { validateContent } from '../../../src/domain/content/validate.ts';
import { confidentQuotes } from '../../../src/domain/insights/confident-quotes.ts';
import { insightsDocument } from '../../../src/domain/insights/document.ts';
import type { AnalyzedAspect } from '../../../src/domain/insights/owner-corrections.ts';
import { isQuotable, type Mention } from '../../../src/domain/insights/quotes.ts';
import { rankEntities } from '../../../src/domain/insights/rankings.ts';
import { recurringTopics, STOPWORDS } from '../../../src/domain/insights/topics.ts';
import { ASPECTS, type Review, type ReviewAspect } from '../../../src/domain/schemas/review.ts';
import { buildSite } from '../../../src/domain/site.ts';
import { foldText } from '../../../src/domain/text.ts';

const REVIEWS = 400;

/** A small deterministic hash of a sentence, to pick its labels. */
function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** Labels each sentence with an aspect, a sentiment leaning on the rating, and coarse figures that often tie. */
function standInAnalyzer(text: string, rating = 3): AnalyzedAspect[] {
  return text
    .split(/(?<=[.!?])\s+/)
    .filter((sentence) => sentence.trim())
    .map((sentence) => {
      const h = hash(sentence);
      const lean = (h >>> 8) % 5;
      const sentiment = lean < rating - 1 ? 'positive' : lean === rating - 1 ? 'neutral' : 'negative';
      const strength = [0.4, 0.8][(h >>> 12) % 2] as number;
      return {
        aspect: ASPECTS[h % ASPECTS.length] as AnalyzedAspect['aspect'],
        sentiment,
        score: sentiment === 'positive' ? strength : sentiment === 'negative' ? -strength : 0,
        confidence: [0.5, 0.7, 0.9, 1][(h >>> 16) % 4] as number,
        excerpt: sentence,
      };
    });
}

const checked = validateContent(generateContent(REVIEWS, 7));
if (!checked.ok) throw new Error(JSON.stringify(checked.problems.slice(0, 3)));
const site = buildSite(checked.content, 'https://site.example', standInAnalyzer);
const { reviews, business } = site;
const doc = insightsDocument(site);

/** Sorted by |score|, ties to the earlier mention; the first two reviews of each polarity. */
function highlightsReference(mentions: Mention[]) {
  const picked = [];
  for (const sentiment of ['positive', 'negative'] as const) {
    const ids = new Set<string>();
    const sorted = mentions
      .filter((m) => isQuotable(m) && m.found.sentiment === sentiment)
      .map((m, order) => ({ ...m, order }))
      .sort((a, b) => Math.abs(b.found.score) - Math.abs(a.found.score) || a.order - b.order);
    for (const { review, found } of sorted) {
      if (ids.has(review.id) || ids.size >= 2) continue;
      ids.add(review.id);
      picked.push({ review_id: review.id, excerpt: found.excerpt, sentiment });
    }
  }
  return picked;
}

const STOP_EDGE = /^\d+$/;

/** Every two- and three-word phrase of every review, then every recurring phrase against every other. */
function topicsReference(of: readonly Review[] = reviews, options = { minCount: 3, limit: 25, idsPerTopic: 10 }) {
  const byPhrase = new Map<string, string[]>();
  for (const review of of) {
    const phrases = new Set<string>();
    for (const clause of (review.title ? `${review.title}\n${review.text}` : review.text).split(/[.!?;:,()\n]+/)) {
      const tokens = foldText(clause).match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu) ?? [];
      for (const n of [2, 3]) {
        for (let i = 0; i + n <= tokens.length; i++) {
          const gram = tokens.slice(i, i + n);
          const edges = [gram[0] as string, gram[n - 1] as string];
          if (edges.some((w) => STOPWORDS.has(w) || STOP_EDGE.test(w)) || gram.some((w) => w.length < 2)) continue;
          phrases.add(gram.join(' '));
        }
      }
    }
    for (const phrase of phrases) byPhrase.set(phrase, [...(byPhrase.get(phrase) ?? []), review.id]);
  }
  const recurring = [...byPhrase].filter(([, ids]) => ids.length >= options.minCount);
  return recurring
    .filter(([phrase, ids]) => !recurring.some(([other, o]) => other !== phrase && o.length === ids.length && ` ${other} `.includes(` ${phrase} `)))
    .sort(([a, x], [b, y]) => y.length - x.length || (a < b ? -1 : 1))
    .slice(0, options.limit)
    .map(([phrase, ids]) => ({ phrase, count: ids.length, review_ids: ids.slice(0, options.idsPerTopic) }));
}

describe('insights document against plain references (generated reviews, stand-in analyzer)', () => {
  it('has ties to break: several quotable mentions share a score and a confidence', () => {
    const keys = reviews.flatMap((r) => r.aspects.filter((found) => isQuotable({ review: r, found })).map((a) => `${a.aspect} ${a.score} ${a.confidence}`));
    expect(new Set(keys).size).toBeLessThan(keys.length / 10);
  });

  it('finds the reviews of each technician, service and area as a filter over all reviews does', () => {
    const lists = [
      [doc.entities.technicians, business.technicians, (r: Review) => r.technicians],
      [doc.entities.services, business.services, (r: Review) => r.services],
      [doc.entities.service_areas, business.service_areas, (r: Review) => (r.service_area ? [r.service_area] : [])],
    ] as const;
    for (const [insights, entities, named] of lists) {
      expect(insights.map((e) => e.id)).toEqual(entities.map((e) => e.id));
      for (const entity of insights) {
        const mentioning = reviews.filter((r) => named(r).some((x) => x.id === entity.id));
        expect(mentioning.length).toBeGreaterThan(0);
        expect(entity.mentions).toBe(mentioning.length);
        expect(entity.review_ids).toEqual(mentioning.slice(0, 20).map((r) => r.id));
        const labels = mentioning.flatMap((r) => r.aspects);
        expect(entity.sentiment.positive).toBe(labels.filter((a) => a.sentiment === 'positive').length);
        expect(entity.sentiment.negative).toBe(labels.filter((a) => a.sentiment === 'negative').length);
      }
    }
  });

  it('ranks technicians and services, overall and per service, from those same reviews', () => {
    const of = (entities: readonly { id: string; name: string }[], within: readonly Review[], named: (r: Review) => readonly { id: string }[]) =>
      entities.map(({ id, name }) => ({ id, name, reviews: within.filter((r) => named(r).some((x) => x.id === id)) }));
    expect(doc.rankings.technicians).toEqual(rankEntities(of(business.technicians, reviews, (r) => r.technicians)));
    expect(doc.rankings.services).toEqual(rankEntities(of(business.services, reviews, (r) => r.services)));
    expect(doc.rankings.technicians.length).toBeGreaterThan(1);
    for (const service of business.services) {
      const ofService = reviews.filter((r) => r.services.some((s) => s.id === service.id));
      const [best] = rankEntities(of(business.technicians, ofService, (r) => r.technicians));
      const entry = doc.faq.find((f) => f.question === `Which technician gets the best reviews for ${service.name.toLowerCase()}?`);
      expect(entry?.review_ids).toEqual(best?.review_ids);
      expect(entry?.answer.includes(`: ${best?.name} (`)).toBe(true);
    }
  });

  it('tallies each aspect and quotes its strongest sure mentions, as sorting every mention does', () => {
    for (const aspect of doc.aspects) {
      const mentions = reviews.flatMap((review) => review.aspects.filter((found) => found.aspect === aspect.aspect).map((found) => ({ review, found })));
      expect(aspect.mentions).toBe(mentions.length);
      for (const sentiment of ['positive', 'neutral', 'negative'] as const) {
        expect(aspect[sentiment]).toBe(mentions.filter((m) => m.found.sentiment === sentiment).length);
      }
      expect(aspect.trend.reduce((sum, quarter) => sum + quarter.mentions, 0)).toBe(mentions.length);
      expect(aspect.highlights).toEqual(highlightsReference(mentions));
      expect(aspect.highlights.length).toBe(4);
    }
  });

  it('lists the recurring phrases that comparing every phrase with every other finds', () => {
    expect(doc.topics.length).toBe(25);
    expect(doc.topics).toEqual(topicsReference());
  });

  it('reads phrases clause by clause in any script, as folding each clause on its own does', () => {
    // Folding a whole text at once differs here: a full-width comma folds to a clause break, a
    // capital sigma's lower case depends on the next letter; ’ and ' both join a word's end.
    const texts = [
      'ΜΕΓΑΛΟΣ ΟΔΟΣ.ΑΘΗΝΑ roof flashing. ΟΔΟΣ,ΑΘΗΝΑ roof flashing',
      'μεγαλος οδος. ΜΕΓΑΛΟΣ ΟΔΟΣ:Α',
      'Zoë’s ridge vent，drip edge fixed. Zoe’s ridge vent! drip edge fixed',
      "ZOË'S RIDGE VENT; drip edge fixed (twice) 24 hour crew don't9 stop",
      'odos athena. Ridge vent—drip edge fixed',
      'Ὀδὸς ridge vent drip edge fixed; ｆｕｌｌ width gutter guards',
      'full width gutter guards, Ｏdos ridge vent drip edge fixed',
    ];
    const made = texts.map((text, i) => ({ id: `t${i}`, title: i % 2 ? 'Ridge vent' : null, text }) as Review);
    const options = { minCount: 2, limit: 100, idsPerTopic: 3 };
    const reference = topicsReference(made, options);
    expect(reference.length).toBeGreaterThan(5);
    expect(recurringTopics(made, options)).toEqual(reference);
  });

  it('picks the home page quotes as sorting every candidate does', () => {
    type Candidate = { review: Review; found: ReviewAspect & { excerpt: string }; order: number };
    const sorted = reviews
      .flatMap((review, order) => review.aspects.map((found) => ({ review, found, order })))
      .filter((c): c is Candidate => isQuotable(c))
      .sort((a, b) => b.found.confidence - a.found.confidence || Math.abs(b.found.score) - Math.abs(a.found.score) || a.order - b.order);
    for (const count of [0, 1, 4, ASPECTS.length + 2]) {
      const quoted = { reviews: new Set<string>(), aspects: new Set<string>() };
      const expected = [];
      for (const { review, found } of sorted) {
        if (expected.length >= count) break;
        if (quoted.reviews.has(review.id) || quoted.aspects.has(found.aspect)) continue;
        quoted.reviews.add(review.id);
        quoted.aspects.add(found.aspect);
        expected.push({ review_id: review.id, excerpt: found.excerpt, aspect: found.aspect, confidence: found.confidence });
      }
      expect(confidentQuotes(reviews, count).map(({ review_id, excerpt, aspect, confidence }) => ({ review_id, excerpt, aspect, confidence }))).toEqual(expected);
    }
  });
});
