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
import { mebibytes, type AnswerBudget } from './answer-budget.ts';
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

export function resourceSet(siteUrl: string, documents: readonly PublishedDocument[], catalog: ReviewCatalog): ResourceSet {
  const base = siteUrl.replace(/\/+$/, '');
  const byUri = new Map(documents.map((document) => [`${base}${document.path}`, document]));
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
      const document = byUri.get(uri);
      if (document) {
        charge(uri, sizes.get(uri) as number, budget, `Fetch it over HTTP at that URL, or page through the reviews with the search_reviews and get_reviews_since tools.`);
        return { contents: [{ uri, mimeType: document.mimeType, text: document.text() }] };
      }
      const match = REVIEW_URI.exec(uri);
      if (!match) throw notFound(uri, `${JSON.stringify(uri)} names no resource of this server`);
      const id = decoded(match[1] as string);
      const review = id === undefined ? undefined : catalog.review(id);
      if (!review) throw notFound(uri, `no published review has the id ${JSON.stringify(id ?? match[1])}`);
      const text = JSON.stringify(review);
      charge(uri, Buffer.byteLength(text), budget, 'Fetch the reviews dataset over HTTP instead.');
      return { contents: [{ uri, mimeType: 'application/json', text }] };
    },
  };
}
