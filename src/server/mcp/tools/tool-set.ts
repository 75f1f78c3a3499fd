/** The tools of the server, looked up by name; an unknown name is a protocol fault (JSON-RPC -32602), as the MCP spec says. */
import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import type { BodyPart } from '../../http/answer.ts';
import type { AnswerBudget } from '../answer-budget.ts';
import { INVALID_PARAMS, ProtocolError } from '../protocol-error.ts';
import type { McpTool } from './define-tool.ts';

export interface ToolSet {
  readonly list: readonly Tool[];
  has(name: string): boolean;
  call(name: string, args: Record<string, unknown> | undefined, budget?: AnswerBudget): CallToolResult;
  /** The result of a known tool as JSON text in parts that join to it (see McpTool.callToJson). */
  callToJson(name: string, args: Record<string, unknown> | undefined, budget?: AnswerBudget): BodyPart[];
}

export function toolSet(tools: readonly McpTool[]): ToolSet {
  const byName = new Map(tools.map((tool) => [tool.definition.name, tool]));
  const names = tools.map((tool) => tool.definition.name).join(', ');
  const find = (name: string): McpTool => {
    const tool = byName.get(name);
    if (!tool) throw new ProtocolError(INVALID_PARAMS, `Unknown tool: ${JSON.stringify(name)}. The tools are ${names}.`);
    return tool;
  };
  return {
    list: tools.map((tool) => tool.definition),
    has: (name) => byName.has(name),
    call: (name, args, budget) => find(name).call(args, budget),
    callToJson: (name, args, budget) => find(name).callToJson(args, budget),
  };
}
