/**
 * How a tool is declared: zod schemas for its arguments and its result (the
 * JSON Schemas of tools/list are generated from them once per process), a parse
 * step, and a pure run step. Bad arguments and unknown ids come back as a tool
 * result with `isError: true` whose text says what to change; the JSON-RPC
 * errors are left for protocol faults (an unknown tool, see tool-set.ts).
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ascii, fromByteString, joinBytes, toByteString, type ByteString } from '../../../domain/byte-string.ts';
import { issuesFromZod, type Parsed } from '../../../domain/catalog/query-issues.ts';
import type { QueryIssue } from '../../../domain/schemas/errors.ts';
import { bodyBuffer, type BodyPart } from '../../http/answer.ts';
import { sizedCache } from '../../http/answer-cache.ts';
import { answerBudget, mebibytes, type AnswerBudget } from '../answer-budget.ts';

/** Every tool only reads the published reviews. */
const ANNOTATIONS = { readOnlyHint: true, idempotentHint: true, openWorldHint: false } as const;

/**
 * A tool's result; `json` and `jsonLiteral` give its JSON text (and that text as a JSON
 * string literal) in byte strings that join to it when the tool has them prepared, so it
 * is not serialised again.
 */
export type Outcome<T> =
  /** `note`: a sentence for the agent after the JSON (a page cut short, and how to get the rest), as a second text block. */
  | { ok: true; value: T; json?: () => ByteString[]; jsonLiteral?: () => ByteString[]; note?: string }
  | { ok: false; message: string };

export interface ToolSpec<Input extends z.ZodObject, Args, Result> {
  name: string;
  title: string;
  description: string;
  /** The arguments' schema: advertised, and used to parse unless `parse` is given. */
  input: Input;
  output: z.ZodType<Result>;
  /** Extra facts for the advertised input schema (enums of ids the data holds, say). */
  refineInputSchema?: (schema: JsonObject) => void;
  parse?: (args: Record<string, unknown>) => Parsed<Args>;
  /** The result as an object (structuredContent) and, optionally, its JSON text if already at hand. */
  run: (args: Args) => Outcome<Result>;
  /** What to use instead when a result is over the answer budget (a narrower call, an HTTP URL). */
  whenTooLarge?: string;
}

export interface McpTool {
  readonly definition: Tool;
  call(args: Record<string, unknown> | undefined, budget?: AnswerBudget): CallToolResult;
  /**
   * The same result as JSON text in parts that join to it, without serialising again
   * what the tool already has as JSON; a result given before for the same arguments
   * comes back as the bytes it was.
   */
  callToJson(args: Record<string, unknown> | undefined, budget?: AnswerBudget): BodyPart[];
}

export type JsonObject = Record<string, unknown>;

// A CallToolResult's JSON around its text copy and structured content, in the SDK's member order.
const RESULT_START = ascii('{"content":[{"type":"text","text":');
const RESULT_MIDDLE = ascii('}],"structuredContent":');
const NOTE_START = ascii('},{"type":"text","text":');
const RESULT_END = ascii('}');

const isEmptyObject = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;

/**
 * Keywords an agent pays for in every tools/list and learns nothing from: zod's
 * safe-integer bounds on each count, the long calendar regex beside `format: "date"`
 * (the server checks dates itself), and OpenAPI's `example`. The OpenAPI document keeps them.
 */
function isNoise(key: string, value: unknown, node: JsonObject): boolean {
  if (key === 'maximum') return value === Number.MAX_SAFE_INTEGER;
  if (key === 'minimum') return value === Number.MIN_SAFE_INTEGER;
  if (key === 'pattern') return node.format === 'date' || node.format === 'date-time';
  return key === 'example';
}

/**
 * The same schema in the spellings every client reads, and short: `type: ["string", "null"]`
 * becomes an `anyOf` of single types (dialects such as Gemini's take one type),
 * an empty schema `{}` for extra properties becomes `true`, and noise (isNoise) goes.
 */
function portable(node: unknown, namesProperties = false): unknown {
  if (Array.isArray(node)) return node.map((item) => portable(item));
  if (typeof node !== 'object' || node === null) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    // In `properties` the keys are field names (a field may be called "example"), not keywords.
    if (!namesProperties && isNoise(key, value, node as JsonObject)) continue;
    out[key] = key === 'additionalProperties' && isEmptyObject(value) ? true : portable(value, !namesProperties && (key === 'properties' || key === '$defs'));
  }
  if (!Array.isArray(out.type)) return out;
  const { type, ...rest } = out;
  return { anyOf: (type as unknown[]).map((single) => ({ type: single })), ...rest };
}

/** A JSON Schema for MCP: draft 2020-12 (MCP's default dialect), without `$schema`. */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonObject {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonObject;
  return portable(rest) as JsonObject;
}

/**
 * Tool arguments are flat values; a value nested deeper than this is refused before
 * any schema looks at it (code that walks a value, JSON.stringify included, recurses).
 */
export const MAX_ARGUMENT_DEPTH = 8;

/** Whether `value` has arrays or objects nested more than `max` deep; walked without recursion. */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (typeof node !== 'object' || node === null) continue;
    if (depth >= max) return true;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}

export function toolError(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/**
 * The issues in the tool's terms: the parsers speak of an endpoint's query parameters
 * (they serve the HTTP routes too); a tool has arguments.
 */
function inToolTerms(tool: string, known: readonly string[], issue: QueryIssue): string {
  if (issue.code !== 'unknown_parameter') return issue.message;
  const hint = / Did you mean "[^"]*"\?$/.exec(issue.message)?.[0] ?? '';
  const allowed = known.length ? `its arguments are ${known.join(', ')}` : 'it takes no arguments';
  return `${JSON.stringify(issue.path)} is not an argument of ${tool}; ${allowed}.${hint}`;
}

/**
 * Problems a tool error spells out; the rest are counted. Each unknown argument's
 * sentence lists the tool's arguments, so an answer that spelled out every one of
 * thousands of made-up names would be megabytes, and slow to build.
 */
const SHOWN_ARGUMENT_ISSUES = 5;

export function invalidArguments(tool: string, issues: readonly QueryIssue[], known: readonly string[] = []): CallToolResult {
  const shown = issues.slice(0, SHOWN_ARGUMENT_ISSUES).map((issue) => inToolTerms(tool, known, issue));
  const rest = issues.length - shown.length;
  const more = rest > 0 ? ` And ${rest} more ${rest === 1 ? 'problem like these' : 'problems like these'}.` : '';
  return toolError(`Invalid arguments for ${tool}: ${shown.join(' ')}${more}`);
}

/**
 * A search or sync body ends with a newline, as an HTTP document does; spliced into a
 * JSON-RPC answer it would be a raw line break, and a client reading one answer per
 * line (the README's curl loop) would get half an answer.
 */
function withoutFinalNewline(parts: ByteString[]): ByteString[] {
  const last = parts.at(-1);
  if (last === undefined || !last.endsWith('\n')) return parts;
  return [...parts.slice(0, -1), last.slice(0, -1) as ByteString];
}

/**
 * Bytes of results a tool keeps by their arguments. A tool is made per build (see
 * content.ts) and its result is a function of its arguments and the build, so the
 * kept results go with the build. Agents repeat calls (the first page of a search,
 * the business); a kept result is written without being made or copied again.
 */
const KEPT_RESULT_BYTES = 8 * 1024 * 1024;
/** Arguments longer than this as JSON are not a key: such calls are rare, and the key would cost more than it saves. */
const MAX_KEY_LENGTH = 1024;

interface KeptResult {
  readonly bytes: Buffer;
  /** What the result charged to the answer budget. */
  readonly charged: number;
}

/** The arguments as the key of their result, if they make a short one. */
function resultKey(args: Record<string, unknown> | undefined): string | undefined {
  if (nestedDeeperThan(args, MAX_ARGUMENT_DEPTH + 1)) return undefined;
  const key = JSON.stringify(args ?? {});
  return key.length <= MAX_KEY_LENGTH ? key : undefined;
}

export function defineTool<Input extends z.ZodObject, Result, Args = z.output<Input>>(spec: ToolSpec<Input, Args, Result>): McpTool {
  const inputSchema = jsonSchemaOf(spec.input, 'input');
  spec.refineInputSchema?.(inputSchema);
  const known = Object.keys(spec.input.shape);
  const parse =
    spec.parse ??
    ((args: Record<string, unknown>): Parsed<Args> => {
      const parsed = spec.input.safeParse(args);
      return parsed.success ? { ok: true, value: parsed.data as Args } : { ok: false, issues: issuesFromZod(parsed.error, args, known) };
    });
  const run = (args: Record<string, unknown> | undefined): Exclude<Outcome<Result>, { ok: false }> | { ok: false; error: CallToolResult } => {
    // The arguments object itself is one level.
    if (nestedDeeperThan(args, MAX_ARGUMENT_DEPTH + 1)) {
      return {
        ok: false,
        error: toolError(`Invalid arguments for ${spec.name}: arguments are nested more than ${MAX_ARGUMENT_DEPTH} levels deep; every argument of this tool is a single string or number.`),
      };
    }
    const parsed = parse(args ?? {});
    if (!parsed.ok) return { ok: false, error: invalidArguments(spec.name, parsed.issues, known) };
    const outcome = spec.run(parsed.value);
    return outcome.ok ? outcome : { ok: false, error: toolError(outcome.message) };
  };
  const tooLarge = (size: number, budget: AnswerBudget): CallToolResult =>
    toolError(
      `This result of ${spec.name} would make an answer of about ${mebibytes(size)}, more than the ${mebibytes(budget.maxBytes)} ` +
        `this server puts in one answer (a batch shares it). ${spec.whenTooLarge ?? 'Ask for less at a time.'}`,
    );
  const keptResults = sizedCache<KeptResult>(KEPT_RESULT_BYTES, (result) => result.bytes.length);
  return {
    definition: {
      name: spec.name,
      title: spec.title,
      description: spec.description,
      inputSchema: inputSchema as Tool['inputSchema'],
      outputSchema: jsonSchemaOf(spec.output, 'output') as Tool['outputSchema'],
      annotations: { title: spec.title, ...ANNOTATIONS },
    },
    call(args, budget = answerBudget()) {
      const outcome = run(args);
      if (!outcome.ok) return outcome.error;
      const text = outcome.json ? fromByteString(joinBytes(outcome.json())) : JSON.stringify(outcome.value);
      if (!budget.take(2 * text.length)) return tooLarge(2 * text.length, budget);
      const note = outcome.note === undefined ? [] : [{ type: 'text' as const, text: outcome.note }];
      return { content: [{ type: 'text', text }, ...note], structuredContent: outcome.value as JsonObject };
    },
    callToJson(args, budget = answerBudget()) {
      const key = resultKey(args);
      const kept = key === undefined ? undefined : keptResults.get(key);
      if (kept) return budget.take(kept.charged) ? [kept.bytes] : [toByteString(JSON.stringify(tooLarge(kept.charged, budget)))];
      const outcome = run(args);
      if (!outcome.ok) return [toByteString(JSON.stringify(outcome.error))];
      // The text is the structured content's JSON: it goes in once as a string and once as the object.
      const text = outcome.json ? undefined : JSON.stringify(outcome.value);
      const json = withoutFinalNewline(outcome.json?.() ?? [toByteString(text as string)]);
      const size = 2 * json.reduce((sum, part) => sum + part.length, 0);
      if (!budget.take(size)) return [toByteString(JSON.stringify(tooLarge(size, budget)))];
      const literal = outcome.jsonLiteral?.() ?? [toByteString(JSON.stringify(text ?? fromByteString(joinBytes(json))))];
      const note = outcome.note === undefined ? [] : [NOTE_START, toByteString(JSON.stringify(outcome.note))];
      const bytes = bodyBuffer([RESULT_START, ...literal, ...note, RESULT_MIDDLE, ...json, RESULT_END]);
      if (key !== undefined) keptResults.set(key, { bytes, charged: size });
      return [bytes];
    },
  };
}
