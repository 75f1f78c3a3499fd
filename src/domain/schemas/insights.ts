import { z } from 'zod';
import { aspectIdSchema, isoDateSchema } from './review.ts';

const quoteSchema = z.object({ review_id: z.string(), excerpt: z.string(), sentiment: z.enum(['positive', 'neutral', 'negative']) });

export const aspectInsightSchema = z.object({
  aspect: aspectIdSchema,
  mentions: z.int().min(0),
  positive: z.int().min(0),
  neutral: z.int().min(0),
  negative: z.int().min(0),
  score: z.number().min(-1).max(1).meta({ description: '(positive - negative) / mentions; 0 with no mentions.' }),
  trend: z.array(
    z.object({
      quarter: z.string().meta({ example: '2024-Q2' }),
      mentions: z.int().min(0),
      positive: z.int().min(0),
      neutral: z.int().min(0),
      negative: z.int().min(0),
      score: z.number().min(-1).max(1),
    }),
  ),
  highlights: z.array(quoteSchema),
});

const sentimentSummarySchema = z.object({
  positive: z.int().min(0),
  neutral: z.int().min(0),
  negative: z.int().min(0),
  score: z.number().min(-1).max(1),
});

export const entityInsightSchema = z.object({
  id: z.string(),
  name: z.string(),
  mentions: z.int().min(0).meta({ description: 'Verified reviews that mention it.' }),
  average_rating: z.number().min(1).max(5).nullable(),
  sentiment: sentimentSummarySchema,
  review_ids: z.array(z.string()).meta({ description: 'The newest reviews that mention it (at most 20).' }),
});

const shareFields = {
  share: z.number().min(0).max(1).meta({ description: 'The raw share, count / total.' }),
  lower_bound: z
    .number()
    .min(0)
    .max(1)
    .meta({ description: 'Lower bound of the 95% Wilson score interval of the share: what the ranking orders by.' }),
};

const aspectRankSchema = z.object({
  aspect: aspectIdSchema,
  mentions: z.int().min(1),
  count: z.int().min(1).meta({ description: 'Mentions of the ranked sentiment (positive for most_praised, negative for most_criticised).' }),
  ...shareFields,
});

const entityRankSchema = z.object({
  id: z.string(),
  name: z.string(),
  reviews: z.int().min(1).meta({ description: 'Verified reviews that mention it.' }),
  happy_reviews: z.int().min(0).meta({ description: 'Of those, the reviews rated happy_rating stars or more.' }),
  average_rating: z.number().min(1).max(5),
  ...shareFields,
  review_ids: z.array(z.string()).meta({ description: 'The newest reviews that mention it (at most 5).' }),
});

export const rankingsSchema = z
  .object({
    rule: z.object({
      statistic: z.literal('wilson_lower_bound'),
      confidence: z.number().min(0).max(1),
      min_aspect_mentions: z.int().min(1),
      min_entity_reviews: z.int().min(1),
      happy_rating: z.int().min(1).max(5),
    }),
    most_praised: z.array(aspectRankSchema),
    most_criticised: z.array(aspectRankSchema),
    technicians: z.array(entityRankSchema),
    services: z.array(entityRankSchema),
  })
  .meta({
    description:
      'Aspects by the lower confidence bound of their positive (most_praised) or negative (most_criticised) share, ' +
      'technicians and services by that of their share of happy reviews, each only from a minimum of mentions (rule); best first.',
  });

export const analyzerMeasurementSchema = z
  .object({
    method: z.string().meta({ description: 'How the analyzer labels sentences.' }),
    measured_on: isoDateSchema,
    evaluation: z.string().meta({ description: 'The labelled text it was scored on, and how.' }),
    sentences: z.int().min(1),
    triple_f1: z.number().min(0).max(1).meta({ description: 'F1 over (sentence, aspect, sentiment) triples on text the analyzer was not tuned on.' }),
    aspect_f1: z.number().min(0).max(1).meta({ description: 'F1 over (sentence, aspect) pairs on the same text.' }),
    cross_validated: z
      .object({
        by: z.string().meta({ description: 'What a fold holds out, e.g. writer: each fold is the text of one writer the model was not trained on.' }),
        folds: z.int().min(1),
        triple_f1: z.number().min(0).max(1),
        aspect_f1: z.number().min(0).max(1),
      })
      .meta({ description: 'The mean over the folds of a cross-validation, next to the frozen figure above.' }),
    quote_min_confidence: z
      .number()
      .min(0)
      .max(1)
      .meta({ description: 'Sentences whose label has a lower confidence are never quoted in highlights or the FAQ.' }),
  })
  .meta({ description: 'How well the sentiment analyzer reads reviews, measured on labelled text, so a reader can judge the figures.' });

export const insightsSchema = z
  .object({
    business: z.object({ name: z.string(), url: z.string() }),
    generated_from: z.object({ review_count: z.int().min(0), newest_review_date: isoDateSchema.nullable() }),
    aspects: z.array(aspectInsightSchema),
    entities: z.object({
      technicians: z.array(entityInsightSchema),
      services: z.array(entityInsightSchema),
      service_areas: z.array(entityInsightSchema),
    }),
    topics: z.array(
      z.object({ phrase: z.string(), count: z.int().min(1), review_ids: z.array(z.string()) }),
    ),
    faq: z.array(
      z.object({
        question: z.string(),
        answer: z.string(),
        source: z.enum(['editorial', 'reviews']),
        review_ids: z.array(z.string()),
      }),
    ),
    rankings: rankingsSchema,
    analyzer: analyzerMeasurementSchema,
    summary: z.object({
      text: z.string().nullable().meta({ description: 'Editorial summary from the business, if any.' }),
      highlights: z.array(z.string()).meta({ description: 'Generated statements drawn from the reviews.' }),
    }),
  })
  .meta({ id: 'Insights', description: 'Aspect-based sentiment and other insights derived from the verified reviews.' });
export type Insights = z.infer<typeof insightsSchema>;
export type AspectInsight = z.infer<typeof aspectInsightSchema>;
export type EntityInsight = z.infer<typeof entityInsightSchema>;
