/**
 * The common case, a single `tools/call` answered as JSON, without building an
 * SDK server and transport for it. That machinery costs several times what
 * running a tool does (a server per request, zod parsing of the message and of
 * the whole result); the tools themselves are ours and their results are made
 * from validated data. Anything unusual (a batch, SSE, tasks, an unknown tool or
 * protocol version) takes the SDK's path, which answers it properly; the
 * integration tests check that both paths give the same answers.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { ascii, bytes, toByteString, type ByteString } from '../../domain/byte-string.ts';
import { answerBudget, type AnswerBudget } from './answer-budget.ts';
import { isProtocolVersion } from '../../domain/mcp-protocol-versions.ts';
import type { ToolSet } from './tools/tool-set.ts';

const CALL_PARAMS = new Set(['name', 'arguments', '_meta']);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const RESPONSE_START = ascii('{"result":');

/** The JSON-RPC response body for the message in byte strings that join to it, or undefined to let the SDK answer it. */
export function directToolCall(messages: readonly JSONRPCMessage[], protocolVersion: string | null, tools: ToolSet, budget: AnswerBudget = answerBudget()): ByteString[] | undefined {
  if (messages.length !== 1) return undefined;
  const message = messages[0] as Record<string, unknown>;
  if (message.method !== 'tools/call' || !('id' in message)) return undefined;
  if (protocolVersion !== null && !isProtocolVersion(protocolVersion)) return undefined;
  const params = message.params;
  if (!isPlainObject(params) || Object.keys(params).some((key) => !CALL_PARAMS.has(key))) return undefined;
  const { name, arguments: args } = params;
  if (typeof name !== 'string' || !tools.has(name)) return undefined;
  if (args !== undefined && !isPlainObject(args)) return undefined;
  // The SDK's own response layout: result, then jsonrpc and id.
  return [RESPONSE_START, ...tools.callToJson(name, args, budget), bytes`,"jsonrpc":"2.0","id":${toByteString(JSON.stringify(message.id))}}`];
}
