/** Expands JSON-LD as a consumer would, with schema.org's context served from a fixture (no network). */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import jsonld from 'jsonld';
import type { RemoteDocument } from 'jsonld/jsonld-spec';

const CONTEXT = JSON.parse(readFileSync(path.join(import.meta.dirname, '../fixtures/json-ld/schema-org-context.jsonld'), 'utf8')) as RemoteDocument['document'];
const SCHEMA_ORG = new Set(['https://schema.org', 'https://schema.org/', 'http://schema.org', 'http://schema.org/', 'https://schema.org/docs/jsonldcontext.jsonld']);

/** Loads only schema.org's context; any other document is a failure, not a fetch. */
async function documentLoader(url: string): Promise<RemoteDocument> {
  if (!SCHEMA_ORG.has(url)) throw new Error(`The test loads no document from ${url}`);
  return { documentUrl: url, document: CONTEXT };
}

export const S = (term: string) => `http://schema.org/${term}`;

export type Expanded = Record<string, unknown>[];

export async function expandJsonLd(document: object): Promise<Expanded> {
  const expanded: unknown = await jsonld.expand(document as jsonld.JsonLdDocument, { documentLoader });
  return expanded as Expanded;
}

/** The single value of a property of an expanded node: `@value`, `@id`, or the node. */
export function value(node: Record<string, unknown>, term: string): unknown {
  const values = node[S(term)] as Record<string, unknown>[] | undefined;
  if (!values || values.length !== 1) throw new Error(`${term}: expected one value, found ${values?.length ?? 0}`);
  const [only] = values as [Record<string, unknown>];
  return '@value' in only ? only['@value'] : '@id' in only && Object.keys(only).length === 1 ? only['@id'] : only;
}

export function values(node: Record<string, unknown>, term: string): Record<string, unknown>[] {
  return (node[S(term)] as Record<string, unknown>[] | undefined) ?? [];
}
