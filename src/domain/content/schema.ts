/**
 * Schemas of the business's own files in `content/`. They check what the owner
 * wrote; cross-references (ids that must exist) are checked in `validate.ts`.
 */
import { z } from 'zod';
import { isIsoDate, isTimeZone } from '../dates.ts';
import { aspectCorrectionsSchema } from '../insights/owner-corrections.ts';
import { addressSchema } from '../schemas/datasets.ts';
import { BUSINESS_TYPES } from '../structured-data/business-types.ts';
import { LIMITS } from './limits.ts';

/** A text field with a length limit (see limits.ts), saying the limit when it is passed. */
const boundedText = (max: number, what: string) =>
  z.string().max(max, `must be at most ${max.toLocaleString('en-US')} characters (${what})`);
const nameText = () => boundedText(LIMITS.nameChars, 'a name').trim().min(1, 'must not be empty');

export const idSchema = z
  .string()
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be lower-case letters, digits and single hyphens, e.g. "roof-repair"');

/** A date as the owner typed it. YAML is read so that dates stay strings (see parse.ts). */
export const contentDateSchema = z
  .string({ error: 'must be a date written YYYY-MM-DD' })
  .refine(isIsoDate, { message: 'must be a real calendar date written YYYY-MM-DD' });

const namedEntitySchema = z.object({
  id: idSchema,
  name: nameText(),
  aliases: z.array(nameText()).default([]),
});

/** An IANA time zone name the runtime knows, e.g. "America/Chicago". */
const timeZoneSchema = z.string().refine(isTimeZone, { message: 'must be an IANA time zone name, e.g. "America/Chicago"' });

/** How imported reviews sign: the reviewer's name as given, or first name and initial ("Jordan M."). */
export const AUTHOR_NAME_STYLES = ['full', 'first-name-initial'] as const;

export const businessSchema = z.looseObject({
  name: nameText(),
  url: z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' }),
  telephone: z.string().optional(),
  email: z.string().optional(),
  description: z.string().optional(),
  /** The most specific schema.org type of the business, for the pages' structured data (JSON-LD). */
  schema_type: z.enum(BUSINESS_TYPES, { error: `must be one of the schema.org types ${BUSINESS_TYPES.join(', ')}` }).optional(),
  address: addressSchema.optional(),
  service_areas: z.array(z.object({ id: idSchema, name: nameText() })).default([]),
  services: z.array(namedEntitySchema).default([]),
  technicians: z.array(namedEntitySchema).default([]),
  /** Where "today" is for the business: a review dated after it is a content problem. UTC when absent. */
  time_zone: timeZoneSchema.optional(),
  /** The privacy setting `npm run import` applies to reviewers' names (README "Importing reviews"); first-name-initial when absent. */
  author_names: z.enum(AUTHOR_NAME_STYLES, { error: `must be one of ${AUTHOR_NAME_STYLES.map((s) => `"${s}"`).join(', ')}` }).optional(),
});
export type Business = z.infer<typeof businessSchema>;
export type NamedEntity = z.infer<typeof namedEntitySchema>;

export const reviewFrontMatterSchema = z.strictObject({
  author: boundedText(LIMITS.authorChars, 'a name as the customer signs').trim().min(1, 'must not be empty'),
  rating: z
    .number({ error: 'must be a whole number from 1 to 5' })
    .int('must be a whole number from 1 to 5')
    .min(1, 'must be a whole number from 1 to 5')
    .max(5, 'must be a whole number from 1 to 5'),
  date: contentDateSchema,
  verified: z.boolean({ error: 'must be true or false' }),
  verification: boundedText(LIMITS.noteChars, 'a short note').trim().min(1, 'must say how the review was verified'),
  source: boundedText(LIMITS.noteChars, 'a short note').trim().min(1).optional(),
  title: boundedText(LIMITS.titleChars, 'a headline').trim().min(1).optional(),
  service_area: idSchema.optional(),
  services: z.array(idSchema).default([]),
  technicians: z.array(idSchema).default([]),
  response: z
    .strictObject({
      date: contentDateSchema,
      text: boundedText(LIMITS.responseTextChars, "the owner's answer").trim().min(1, 'must not be empty'),
    })
    .optional(),
  /** The owner's reading of aspects, replacing the analyzer's (see insights/owner-corrections.ts). */
  aspects: aspectCorrectionsSchema.optional(),
});
export type ReviewFrontMatter = z.infer<typeof reviewFrontMatterSchema>;

/** A review file once parsed and checked: its id comes from the file name. */
export interface ContentReview extends ReviewFrontMatter {
  id: string;
  /** The markdown body as written. */
  body: string;
}
