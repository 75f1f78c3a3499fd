/** Wire shapes of reviews: one schema each, the OpenAPI document is generated from them. */
import { z } from 'zod';
import { ASPECT_IDS, SENTIMENTS } from './aspects.ts';

export const isoDateSchema = z.iso.date().meta({ description: 'A calendar date, YYYY-MM-DD.', example: '2024-03-12' });

export { SENTIMENTS };
export const sentimentSchema = z.enum(SENTIMENTS);

/** The analyzer's aspect ids, in their canonical order. */
export const ASPECTS = ASPECT_IDS;
export const aspectIdSchema = z.enum(ASPECTS);

const refSchema = z.object({ id: z.string(), name: z.string() });

export const reviewAspectSchema = z.object({
  aspect: aspectIdSchema,
  sentiment: sentimentSchema,
  score: z.number().min(-1).max(1),
  confidence: z
    .number()
    .min(0)
    .max(1)
    .meta({ description: 'How sure the label is, from 0 to 1: 1 for an owner label; for the analyzer, how strongly the sentence reads that way.' }),
  excerpt: z
    .string()
    .nullable()
    .meta({ description: 'The sentence the aspect was found in; null for an owner label that no sentence was read as.' }),
  source: z
    .enum(['analyzer', 'owner'])
    .meta({ description: "analyzer: found in the text by the sentiment analyzer; owner: set by the business in the review's front matter, replacing the analyzer's reading of that aspect." }),
});

export const reviewSchema = z
  .object({
    id: z.string().meta({ description: 'Stable id of the review (its file name).' }),
    url: z.url().meta({
      description: "The review's own page for people, /reviews/{id} on the site: what feeds link to and what to share.",
      example: 'https://reviews.example.com/reviews/2024-03-12-jordan',
    }),
    rating: z.int().min(1).max(5),
    date: isoDateSchema,
    title: z.string().nullable(),
    text: z.string().meta({ description: 'Plain text, as the customer wrote it.' }),
    author: z.object({ name: z.string() }),
    verified: z.literal(true),
    verification: z.string().meta({ description: 'How the review was verified, e.g. invoice.' }),
    source: z.string().nullable(),
    service_area: refSchema.nullable(),
    services: z.array(refSchema).meta({ description: 'Services the review is tagged with or names.' }),
    technicians: z.array(refSchema).meta({ description: 'Technicians the review is tagged with or names.' }),
    response: z.object({ date: isoDateSchema, text: z.string() }).nullable(),
    aspects: z.array(reviewAspectSchema),
  })
  .meta({ id: 'Review', description: 'A verified customer review.' });
export type Review = z.infer<typeof reviewSchema>;
/** A review as prepared from its file, before the site gives it its address (see site.ts). */
export type ReviewRecord = Omit<Review, 'url'>;
export type ReviewAspect = z.infer<typeof reviewAspectSchema>;
