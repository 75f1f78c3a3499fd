/** Pieces of OpenAPI that several paths use. */
import { ref } from './components.ts';

/** Path items by path, as the document's `paths` holds them. */
export type PathItems = Record<string, Record<string, unknown>>;

export const validatorHeaders = {
  ETag: { description: 'Strong validator derived from the bytes.', schema: { type: 'string' } },
  'Last-Modified': { description: 'Date of the newest content in the response.', schema: { type: 'string' } },
  'Cache-Control': { schema: { type: 'string' } },
};

export const topicHeaders = {
  ...validatorHeaders,
  Link: { description: 'rel="hub" (the WebSub hub) and rel="self" (this topic).', schema: { type: 'string' } },
};

export const conditionalParameters = [
  { name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' }, description: 'ETags of cached copies; wins over If-Modified-Since.' },
  { name: 'If-Modified-Since', in: 'header', required: false, schema: { type: 'string' }, description: 'HTTP date of a cached copy.' },
];

export const notModified = { description: 'Not modified: the cached copy is current. Empty body.', headers: validatorHeaders };

export function jsonResponse(description: string, schema: unknown, headers: Record<string, unknown> = validatorHeaders) {
  return { description, headers, content: { 'application/json': { schema } } };
}

export function errorResponse(description: string) {
  return { description, content: { 'application/json': { schema: ref('ApiError') } } };
}

/**
 * A method a path refuses, documented as the 405 it answers (with `Allow`), so that a
 * client reading the document knows the answer rather than guessing.
 */
export function refusedMethod(operationId: string, summary: string, allow: string, response: Record<string, unknown>) {
  return {
    operationId,
    summary,
    description: `Refused with 405 Method Not Allowed; the \`Allow\` header lists ${allow}.`,
    responses: {
      '405': { ...response, headers: { Allow: { description: 'The methods this path takes.', schema: { type: 'string', const: allow } } } },
    },
  };
}

/** A build's document, when Accept-Encoding refuses identity and every copy the build made of it. */
export const notAcceptable = { description: 'Accept-Encoding refuses every encoding the document is available in (identity, gzip, br).' };
