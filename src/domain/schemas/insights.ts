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
    summary: z.object({
      text: z.string().nullable().meta({ description: 'Editorial summary from the business, if any.' }),
      highlights: z.array(z.string()).meta({ description: 'Generated statements drawn from the reviews.' }),
    }),
  })
  .meta({ id: 'Insights', description: 'Aspect-based sentiment and other insights derived from the verified reviews.' });
export type Insights = z.infer<typeof insightsSchema>;
export type AspectInsight = z.infer<typeof aspectInsightSchema>;
export type EntityInsight = z.infer<typeof entityInsightSchema>;
