/**
 * Token counts of the catalog's reviews, for the MCP result budget (see tokens.ts):
 * each field of a review (`"name":value`) is counted on the first answer that
 * holds the review, as JSON and as escaped JSON, and kept for the build. A page's
 * count is then a sum, whatever fields it keeps: no answer is tokenized.
 * Counting every review up front would cost about a second per 4,000 reviews
 * when a build is prepared.
 */
import { REVIEW_FIELDS, type ReviewField } from '../schemas/review-fields.ts';
import { countEscapedTokens, countTokens } from '../tokens.ts';
import type { ReviewCatalog } from './review-catalog.ts';
import type { PageBudget } from './review-page.ts';

const FIELD_COUNT = REVIEW_FIELDS.length;
const FIELD_INDEX = new Map(REVIEW_FIELDS.map((field, i) => [field, i]));

export interface ReviewTokens {
  /**
   * A bound on the tokens of one review in an answer, in both its copies (JSON and
   * escaped JSON), each with the comma or bracket that follows it.
   */
  ofReview(position: number, fields?: readonly ReviewField[]): number;
}

/** Tokens of a page's two arrays besides their reviews: `[` and an empty array's `]`, in both copies. */
export const PAGE_TOKENS = 4;

function reviewTokens(catalog: ReviewCatalog): ReviewTokens {
  // Per review and field: tokens of the member as JSON plus escaped, plus one for the comma
  // or brace after it in each copy; 0 for a field the review does not have.
  const counts = new Uint32Array(catalog.count * FIELD_COUNT);
  const counted = new Uint8Array(catalog.count);
  const count = (position: number): void => {
    const review = catalog.reviewAt(position) as Record<string, unknown>;
    for (const [name, value] of Object.entries(review)) {
      const i = FIELD_INDEX.get(name as ReviewField);
      if (i === undefined || value === undefined) continue;
      const member = `${JSON.stringify(name)}:${JSON.stringify(value)}`;
      counts[position * FIELD_COUNT + i] = countTokens(member) + countEscapedTokens(member) + 2;
    }
    counted[position] = 1;
  };
  return {
    ofReview(position, fields) {
      if (counted[position] === 0) count(position);
      const base = position * FIELD_COUNT;
      // The opening brace in both copies and the comma or bracket after the review in both.
      let sum = 4;
      if (fields === undefined) for (let i = 0; i < FIELD_COUNT; i++) sum += counts[base + i] as number;
      else for (const field of fields) sum += counts[base + (FIELD_INDEX.get(field) as number)] as number;
      return sum;
    },
  };
}

const byCatalog = new WeakMap<ReviewCatalog, ReviewTokens>();

/** The catalog's token counts, made on first use and kept as long as the catalog. */
export function reviewTokensOf(catalog: ReviewCatalog): ReviewTokens {
  let tokens = byCatalog.get(catalog);
  if (tokens === undefined) {
    tokens = reviewTokens(catalog);
    byCatalog.set(catalog, tokens);
  }
  return tokens;
}

/** A page budget of `maxTokens` for the reviews of an MCP result (both copies), in counted tokens. */
export function tokenPageBudget(catalog: ReviewCatalog, maxTokens: number): PageBudget {
  const tokens = reviewTokensOf(catalog);
  return { max: maxTokens, empty: PAGE_TOKENS, sizeOf: (position, fields) => tokens.ofReview(position, fields) };
}
