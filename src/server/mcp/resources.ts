/**
 * The published documents as MCP resources, and each review by a template.
 * The documents keep their web URLs as URIs (a client may also fetch them
 * directly; the bytes are the same); a single review has no URL of its own, so
 * it gets `reviews://review/{id}`.
 */
import { McpError, type ReadResourceResult, type Resource, type ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import type { ReviewCatalog } from '../../domain/catalog/catalog.ts';

/** "Resource not found", the MCP spec's code for resources/read. */
const RESOURCE_NOT_FOUND = -32002;

const REVIEW_TEMPLATE = 'reviews://review/{id}';
const REVIEW_URI = /^reviews:\/\/review\/([^/?#]+)$/;

export interface PublishedDocument {
  /** Path on the site, e.g. `/reviews.json`. */
  path: string;
  name: string;
  title: string;
  description: string;
  mimeType: string;
  text: string;
}

export interface ResourceSet {
  readonly list: readonly Resource[];
  readonly templates: readonly ResourceTemplate[];
  read(uri: string): ReadResourceResult;
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
  const list: Resource[] = [...byUri].map(([uri, { name, title, description, mimeType, text }]) => ({
    uri,
    name,
    title,
    description,
    mimeType,
    size: Buffer.byteLength(text),
  }));
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
  const notFound = (uri: string, why: string) => new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${why}. The resources are ${known}.`, { uri });

  return {
    list,
    templates,
    read(uri) {
      const document = byUri.get(uri);
      if (document) return { contents: [{ uri, mimeType: document.mimeType, text: document.text }] };
      const match = REVIEW_URI.exec(uri);
      if (!match) throw notFound(uri, `${JSON.stringify(uri)} names no resource of this server`);
      const id = decoded(match[1] as string);
      const review = id === undefined ? undefined : catalog.review(id);
      if (!review) throw notFound(uri, `no published review has the id ${JSON.stringify(id ?? match[1])}`);
      return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(review) }] };
    },
  };
}
