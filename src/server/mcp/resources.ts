/**
 * The published documents as MCP resources, and each review by a template.
 * The documents keep their web URLs as URIs (a client may also fetch them
 * directly; the bytes are the same); a single review has no URL of its own, so
 * it gets `reviews://review/{id}`.
 */
import type { ListResourceTemplatesResult, ReadResourceResult, Resource } from '@modelcontextprotocol/server';

/** A resource template as resources/templates/list gives it (the SDK's `ResourceTemplate` is its McpServer class). */
type ResourceTemplate = ListResourceTemplatesResult['resourceTemplates'][number];
import type { ReviewCatalog } from '../../domain/catalog/review-catalog.ts';
import { reviewTokensOf } from '../../domain/catalog/review-tokens.ts';
import { countEscapedTokens, tokensAtMost } from '../../domain/tokens.ts';
import { mebibytes, type AnswerBudget } from './answer-budget.ts';
import { budgetWords, type ResultBudget } from './result-budget.ts';
import { ANSWER_TOO_LARGE, ProtocolError, RESOURCE_NOT_FOUND } from './protocol-error.ts';

const REVIEW_TEMPLATE = 'reviews://review/{id}';
const REVIEW_URI = /^reviews:\/\/review\/([^/?#]+)$/;

export interface PublishedDocument {
  /** Path on the site, e.g. `/reviews.json`. */
  path: string;
  name: string;
  title: string;
  description: string;
  mimeType: string;
  /** Its size in bytes. */
  size: number;
  /** Its text, read when a client asks for it: /reviews.json is 164 MB at 100,000 reviews, too much to keep. */
  text(): string;
}

export interface ResourceSet {
  readonly list: readonly Resource[];
  readonly templates: readonly ResourceTemplate[];
  /** The resource's contents, charged to `budget`; throws a ProtocolError for an unknown or too large one. */
  read(uri: string, budget: AnswerBudget): ReadResourceResult;
}

function decoded(part: string): string | undefined {
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined;
  }
}

/**
 * Whether a document's text, escaped into a read result, fits the result budget: its
 * size in bytes says so for most (a token is at least a byte; a text of twenty times
 * the budget's tokens surely passes it), and the rest are counted, once per build.
 */
function documentFits(document: PublishedDocument, budget: ResultBudget): boolean {
  // Escaping adds at most a byte per byte.
  if (tokensAtMost(2 * document.size) <= budget.contentTokens) return true;
  if (document.size > 20 * budget.contentTokens) return false;
  return countEscapedTokens(document.text()) <= budget.contentTokens;
}

export function resourceSet(siteUrl: string, documents: readonly PublishedDocument[], catalog: ReviewCatalog, resultBudget: ResultBudget): ResourceSet {
  const base = siteUrl.replace(/\/+$/, '');
  // A document past the result budget is not offered (its read names what to use instead): a client reads a resource whole.
  const tooLarge = new Map(documents.filter((document) => !documentFits(document, resultBudget)).map((document) => [`${base}${document.path}`, document]));
  const byUri = new Map(documents.filter((document) => !tooLarge.has(`${base}${document.path}`)).map((document) => [`${base}${document.path}`, document]));
  const list: Resource[] = [...byUri].map(([uri, { name, title, description, mimeType, size }]) => ({ uri, name, title, description, mimeType, size }));
  const templates: ResourceTemplate[] = [
    {
      uriTemplate: REVIEW_TEMPLATE,
      name: 'review',
      title: 'One verified review',
      description: 'A single review record as JSON, by its id (the ids are in the reviews dataset and in every search result).',
      mimeType: 'application/json',
    },
  ];
  const known = [...byUri.keys(), REVIEW_TEMPLATE].join(', ');
  const notFound = (uri: string, why: string) => new ProtocolError(RESOURCE_NOT_FOUND, `Resource not found: ${why}. The resources are ${known}.`, { uri });
  // A text goes out JSON-escaped: charge its UTF-8 bytes and a little for the escapes.
  const charge = (uri: string, bytes: number, budget: AnswerBudget, instead: string) => {
    const size = Math.ceil(bytes * 1.1);
    if (budget.take(size)) return;
    throw new ProtocolError(
      ANSWER_TOO_LARGE,
      `Answer too large: ${uri} is ${mebibytes(bytes)}, and this server builds no answer over ${mebibytes(budget.maxBytes)} ` +
        `(a batch shares one budget). ${instead}`,
      { uri, bytes, maxBytes: budget.maxBytes },
    );
  };
  const sizes = new Map(list.map((resource) => [resource.uri, resource.size as number]));

  return {
    list,
    templates,
    read(uri, budget) {
      const large = tooLarge.get(uri);
      if (large) {
        throw new ProtocolError(
          ANSWER_TOO_LARGE,
          `Answer too large: ${uri} (${mebibytes(large.size)}) is over this server's result budget of ${budgetWords(resultBudget)}. ` +
            'Fetch it over HTTP at that URL, or page through the reviews with the search_reviews and get_reviews_since tools' +
            (large.path === '/insights.json' ? ', or read the insights by section with get_insights.' : '.'),
          { uri, bytes: large.size, maxTokens: resultBudget.maxTokens },
        );
      }
      const document = byUri.get(uri);
      if (document) {
        charge(uri, sizes.get(uri) as number, budget, `Fetch it over HTTP at that URL, or page through the reviews with the search_reviews and get_reviews_since tools.`);
        return { contents: [{ uri, mimeType: document.mimeType, text: document.text() }] };
      }
      const match = REVIEW_URI.exec(uri);
      if (!match) throw notFound(uri, `${JSON.stringify(uri)} names no resource of this server`);
      const id = decoded(match[1] as string);
      const position = id === undefined ? undefined : catalog.positionOf(id);
      if (position === undefined) throw notFound(uri, `no published review has the id ${JSON.stringify(id ?? match[1])}`);
      // Its escaped JSON is one of the two copies a review's count holds.
      if (reviewTokensOf(catalog).ofReview(position) > resultBudget.contentTokens) {
        throw new ProtocolError(ANSWER_TOO_LARGE, `Answer too large: ${uri} is over this server's result budget of ${budgetWords(resultBudget)}; fetch the reviews dataset over HTTP instead.`, { uri });
      }
      const text = JSON.stringify(catalog.reviewAt(position));
      charge(uri, Buffer.byteLength(text), budget, 'Fetch the reviews dataset over HTTP instead.');
      return { contents: [{ uri, mimeType: 'application/json', text }] };
    },
  };
}
