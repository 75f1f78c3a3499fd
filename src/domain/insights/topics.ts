/**
 * Recurring phrases: word sequences of two or three words that several reviews share,
 * counted once per review. A phrase that only ever appears inside a longer recurring
 * phrase is left out, so "magnet sweep" does not also list "magnet" fragments.
 */
import { foldText } from '../text.ts';
import type { Review } from '../schemas/review.ts';

export interface Topic {
  phrase: string;
  count: number;
  review_ids: string[];
}

const STOPWORDS = new Set(
  `a about above after again all also am an and any are as at be been before being below between both but by can could
did do does doing done down during each even ever every few for from further get got had has have having he her here
him his how i if in into is it its just let like made make me more most much my myself no nor not now of off on once
one only or other our ours out over own really same she should so some still such than that the their them then there
these they this those through to too two under until up us very was we well went were what when where which while who
whom why will with would you your yours yet back way came come going go said say told asked know think thing things
day days time times week weeks year years lot first last next new old great good best nice highly recommend recommended
would definitely absolutely again everything anything something nothing company job work roof guys guy crew team
else someone somebody took take put sent send three four five six seven eight nine ten twice once`
    .split(/\s+/)
    .filter(Boolean),
);

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;

function words(text: string): string[] {
  return foldText(text).match(WORD) ?? [];
}

function phrasesOf(text: string): Set<string> {
  const found = new Set<string>();
  // Phrases never cross a sentence or clause break.
  for (const clause of text.split(/[.!?;:,()\n]+/)) {
    const tokens = words(clause);
    for (let n = 2; n <= 3; n++) {
      for (let i = 0; i + n <= tokens.length; i++) {
        const gram = tokens.slice(i, i + n);
        const first = gram[0] as string;
        const last = gram[n - 1] as string;
        if (STOPWORDS.has(first) || STOPWORDS.has(last) || /^\d+$/.test(first) || /^\d+$/.test(last)) continue;
        if (gram.some((w) => w.length < 2)) continue;
        found.add(gram.join(' '));
      }
    }
  }
  return found;
}

export function recurringTopics(reviews: readonly Review[], options = { minCount: 3, limit: 25, idsPerTopic: 10 }): Topic[] {
  const byPhrase = new Map<string, string[]>();
  for (const review of reviews) {
    for (const phrase of phrasesOf(review.title ? `${review.title}\n${review.text}` : review.text)) {
      const ids = byPhrase.get(phrase);
      if (ids) ids.push(review.id);
      else byPhrase.set(phrase, [review.id]);
    }
  }
  const recurring = [...byPhrase.entries()].filter(([, ids]) => ids.length >= options.minCount);
  const counts = new Map(recurring.map(([phrase, ids]) => [phrase, ids.length]));
  const kept = recurring.filter(([phrase, ids]) => {
    // Drop a phrase whose every occurrence is inside a longer recurring phrase.
    for (const [other, otherCount] of counts) {
      if (other !== phrase && otherCount === ids.length && ` ${other} `.includes(` ${phrase} `)) return false;
    }
    return true;
  });
  return kept
    .sort(([a, x], [b, y]) => y.length - x.length || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, options.limit)
    .map(([phrase, ids]) => ({ phrase, count: ids.length, review_ids: ids.slice(0, options.idsPerTopic) }));
}
