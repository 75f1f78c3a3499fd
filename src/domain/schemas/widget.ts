/**
 * Wire shapes of what the embeddable widget and the iframe embed read: the search
 * parameters (docs/search.md) with a smaller `limit` and a `sort`, and a small
 * document made for the widget, a few fields per review.
 */
import { z } from 'zod';
import { isoDateSchema } from './review.ts';

export const WIDGET_LIMIT_DEFAULT = 5;
export const WIDGET_LIMIT_MAX = 20;
export const WIDGET_SORTS = ['newest', 'best'] as const;
export type WidgetSort = (typeof WIDGET_SORTS)[number];

/** The parameters the widget takes besides the search filters it hands on to the search. */
export const WIDGET_OWN_PARAMETERS = ['limit', 'sort'] as const;
/** The search filters it hands on as they are (see src/domain/schemas/search.ts). */
export const WIDGET_FILTERS = ['rating', 'min_rating', 'since', 'until', 'query', 'mentions_technician', 'mentions_service'] as const;
export const WIDGET_PARAMETERS: readonly string[] = [...WIDGET_OWN_PARAMETERS, ...WIDGET_FILTERS];

/** How long an excerpt is at most, in characters, before it is cut at a word and ends with "…". */
export const WIDGET_EXCERPT_MAX = 280;

export const widgetReviewSchema = z.object({
  id: z.string(),
  url: z.url().meta({ description: "The review's own page." }),
  rating: z.int().min(1).max(5),
  date: isoDateSchema,
  title: z.string().nullable(),
  excerpt: z.string().meta({ description: `The review's text, cut at a word after at most ${WIDGET_EXCERPT_MAX} characters (then ending with "…").` }),
  author: z.string().meta({ description: "The author's name as published." }),
  has_response: z.boolean().meta({ description: 'Whether the business answered the review (the answer is on its page).' }),
});
export type WidgetReview = z.infer<typeof widgetReviewSchema>;

export const widgetResponseSchema = z
  .object({
    business: z.object({ name: z.string(), url: z.string() }),
    language: z.string().meta({ description: "The business's language (BCP 47), for the widget's lang attribute." }),
    rating_value: z.number().min(1).max(5).nullable().meta({ description: 'Mean star rating of every review, two decimals; null with no reviews.' }),
    review_count: z.int().min(0).meta({ description: 'How many verified reviews there are in all.' }),
    sort: z.enum(WIDGET_SORTS),
    total: z.int().min(0).meta({ description: 'How many reviews match the filters.' }),
    reviews_url: z.url().meta({ description: 'The review browser showing every review that matches the filters.' }),
    reviews: z.array(widgetReviewSchema).max(WIDGET_LIMIT_MAX),
  })
  .meta({ id: 'WidgetResponse', description: 'What the embeddable widget shows: the rating, the count and a few reviews.' });
export type WidgetResponse = z.infer<typeof widgetResponseSchema>;
