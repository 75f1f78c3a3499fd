import { z } from 'zod';

/** Named schemas (`.meta({ id })`) become components; references point at them. */
export function componentSchemas(): Record<string, unknown> {
  const { schemas } = z.toJSONSchema(z.globalRegistry, {
    target: 'draft-2020-12',
    io: 'output',
    unrepresentable: 'any',
    uri: (id) => `#/components/schemas/${id}`,
  });
  const components: Record<string, unknown> = {};
  for (const [id, schema] of Object.entries(schemas).sort(([a], [b]) => (a < b ? -1 : 1))) {
    const { $schema: _schema, $id: _id, ...rest } = schema as Record<string, unknown>;
    components[id] = rest;
  }
  return components;
}

/** An inline JSON schema for a parameter or an unnamed body (one with no named schemas inside). */
export function inlineSchema(schema: z.ZodType, io: 'input' | 'output' = 'output'): Record<string, unknown> {
  const { $schema: _schema, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
  }) as Record<string, unknown>;
  return rest;
}

export const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
