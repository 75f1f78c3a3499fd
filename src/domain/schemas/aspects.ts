/** The aspects a roofing review sentence can talk about. Order is canonical (used for output order and tie-breaks). */
export const ASPECT_IDS = [
  'workmanship',
  'timeliness',
  'communication',
  'price',
  'cleanup',
  'professionalism',
  'estimate',
  'insurance',
  'warranty',
  'materials',
] as const;

export type AspectId = (typeof ASPECT_IDS)[number];

export const SENTIMENTS = ['positive', 'neutral', 'negative'] as const;

export type Sentiment = (typeof SENTIMENTS)[number];

const ASPECT_SET: ReadonlySet<string> = new Set(ASPECT_IDS);

export function isAspectId(value: unknown): value is AspectId {
  return typeof value === 'string' && ASPECT_SET.has(value);
}

const SENTIMENT_SET: ReadonlySet<string> = new Set(SENTIMENTS);

export function isSentiment(value: unknown): value is Sentiment {
  return typeof value === 'string' && SENTIMENT_SET.has(value);
}
