/**
 * What a publish changes, in words the business reads: reviews added, changed
 * and removed (by id and title) and the topics whose bytes differ.
 */
export interface ReviewLike {
  id: string;
  title: string | null;
  text: string;
  author?: { name: string };
}

export interface ReviewMention {
  id: string;
  label: string;
}

export interface ReviewChanges {
  added: ReviewMention[];
  changed: ReviewMention[];
  removed: ReviewMention[];
}

export interface TopicChange {
  url: string;
  /** Absent before (first publish) or after (the build no longer has it). */
  change: 'new' | 'changed' | 'unchanged' | 'gone';
}

/** A review's title, or the start of its text when it has none. */
export function reviewLabel(review: ReviewLike): string {
  if (review.title) return review.title;
  const text = review.text.replace(/\s+/g, ' ').trim();
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

export function reviewChanges(before: readonly ReviewLike[], after: readonly ReviewLike[]): ReviewChanges {
  const old = new Map(before.map((review) => [review.id, review]));
  const now = new Map(after.map((review) => [review.id, review]));
  const mention = (review: ReviewLike): ReviewMention => ({ id: review.id, label: reviewLabel(review) });
  return {
    added: after.filter((review) => !old.has(review.id)).map(mention),
    changed: after.filter((review) => old.has(review.id) && JSON.stringify(old.get(review.id)) !== JSON.stringify(review)).map(mention),
    removed: before.filter((review) => !now.has(review.id)).map(mention),
  };
}

/** The report printed by `npm run publish`, one line per fact. */
export function publishReport(reviews: ReviewChanges, topics: readonly TopicChange[]): string[] {
  const changedTopics = topics.filter((topic) => topic.change !== 'unchanged');
  if (changedTopics.length === 0) return ['Nothing changed since the last publish.'];
  const lines: string[] = [];
  const { added, changed, removed } = reviews;
  if (added.length + changed.length + removed.length > 0) {
    lines.push(`Reviews: ${added.length} added, ${changed.length} changed, ${removed.length} removed.`);
    for (const [sign, list] of [['+', added], ['~', changed], ['-', removed]] as const) {
      for (const review of list) lines.push(`  ${sign} ${review.id}: ${review.label}`);
    }
  } else {
    lines.push('Reviews: none added, changed or removed.');
  }
  lines.push(`Topics changed: ${changedTopics.length} of ${topics.length}.`);
  for (const topic of topics) lines.push(`  ${topic.change.padEnd(9)} ${topic.url}`);
  return lines;
}
