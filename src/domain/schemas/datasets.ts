import { z } from 'zod';
import { isoDateSchema, reviewSchema } from './review.ts';

/** A postal address, as the business writes it in business.json and as it is published. */
export const addressSchema = z.looseObject({
  street: z.string(),
  locality: z.string(),
  region: z.string(),
  postal_code: z.string(),
  country: z.string(),
});

const refSchema = z.object({ id: z.string(), name: z.string() });
const namedSchema = refSchema.extend({ aliases: z.array(z.string()) });

export const businessPublicSchema = z
  .looseObject({
    name: z.string(),
    url: z.string(),
    telephone: z.string().optional(),
    email: z.string().optional(),
    description: z.string().optional(),
    schema_type: z.string().optional().meta({ description: 'The schema.org type of the business (e.g. RoofingContractor), used in the pages\' structured data.' }),
    address: addressSchema.optional(),
    service_areas: z.array(refSchema),
    services: z.array(namedSchema),
    technicians: z.array(namedSchema),
  })
  .meta({ id: 'Business', description: 'The business, as it describes itself; more fields may be present.' });

export const aggregateRatingSchema = z
  .object({
    rating_value: z.number().min(1).max(5).nullable().meta({ description: 'Mean star rating, two decimals; null with no reviews.' }),
    review_count: z.int().min(0),
    best_rating: z.literal(5),
    worst_rating: z.literal(1),
    distribution: z.object({ '1': z.int(), '2': z.int(), '3': z.int(), '4': z.int(), '5': z.int() }),
  })
  .meta({ id: 'AggregateRating' });

export const reviewsDatasetSchema = z
  .object({
    business: businessPublicSchema,
    aggregate_rating: aggregateRatingSchema,
    updated: isoDateSchema.nullable().meta({ description: 'Newest review or owner-response date.' }),
    reviews: z.array(reviewSchema).meta({ description: 'All verified reviews, newest first.' }),
  })
  .meta({ id: 'ReviewsDataset' });
export type ReviewsDataset = z.infer<typeof reviewsDatasetSchema>;

const feedAuthorSchema = z.object({ name: z.string(), url: z.string().optional() });

export const jsonFeedItemSchema = z.object({
  id: z.string(),
  url: z.string().optional(),
  title: z.string(),
  content_text: z.string(),
  date_published: z.string(),
  date_modified: z.string().optional(),
  authors: z.array(feedAuthorSchema),
  tags: z.array(z.string()),
  _review: z.object({
    rating: z.int().min(1).max(5),
    verified: z.literal(true),
    services: z.array(z.string()),
    technicians: z.array(z.string()),
    service_area: z.string().nullable(),
  }),
});

export const jsonFeedSchema = z
  .object({
    version: z.literal('https://jsonfeed.org/version/1.1'),
    title: z.string(),
    home_page_url: z.string(),
    feed_url: z.string(),
    description: z.string().optional(),
    language: z.string(),
    authors: z.array(feedAuthorSchema),
    hubs: z.array(z.object({ type: z.literal('WebSub'), url: z.string() })),
    items: z.array(jsonFeedItemSchema).max(50),
  })
  .meta({ id: 'JsonFeed', description: 'JSON Feed 1.1 of the 50 newest reviews.' });
export type JsonFeed = z.infer<typeof jsonFeedSchema>;
