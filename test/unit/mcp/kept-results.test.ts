/**
 * A tool keeps its results by arguments: a call made before is answered with the
 * bytes it gave, without running the tool, and still charged to the answer budget.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toByteString } from '../../../src/domain/byte-string.ts';
import type { BodyPart } from '../../../src/server/http/answer.ts';
import { answerBudget } from '../../../src/server/mcp/answer-budget.ts';
import { defineTool } from '../../../src/server/mcp/tools/define-tool.ts';

const text = (parts: BodyPart[]) => Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : part))).toString();

function countingTool() {
  const runs: unknown[] = [];
  const tool = defineTool({
    name: 'echo',
    title: 'Echo',
    description: 'Says its word back.',
    input: z.object({ word: z.string().optional() }).strict(),
    output: z.object({ word: z.string() }),
    run: ({ word = 'none' }) => {
      runs.push(word);
      const json = JSON.stringify({ word: `${word}, Zoë’s roof` });
      return { ok: true, value: { word }, json: () => [toByteString(json)] };
    },
  });
  return { tool, runs };
}

describe('kept tool results', () => {
  it('answers the same arguments with the same bytes, running the tool once', () => {
    const { tool, runs } = countingTool();
    const first = text(tool.callToJson({ word: 'gutter' }));
    const again = text(tool.callToJson({ word: 'gutter' }));
    expect(again).toBe(first);
    expect(JSON.parse(first)).toEqual({
      content: [{ type: 'text', text: '{"word":"gutter, Zoë’s roof"}' }],
      structuredContent: { word: 'gutter, Zoë’s roof' },
    });
    expect(text(tool.callToJson({ word: 'flashing' }))).toContain('flashing');
    expect(runs).toEqual(['gutter', 'flashing']);
  });

  it('keeps no refusal: bad arguments are checked on every call', () => {
    const { tool, runs } = countingTool();
    for (let i = 0; i < 2; i++) expect(JSON.parse(text(tool.callToJson({ colour: 'red' }))).isError).toBe(true);
    expect(runs).toEqual([]);
  });

  it('charges a kept result to the answer budget, and refuses it past the budget', () => {
    const { tool } = countingTool();
    const made = text(tool.callToJson({ word: 'ridge' }, answerBudget(10_000)));
    const budget = answerBudget(10_000);
    expect(text(tool.callToJson({ word: 'ridge' }, budget))).toBe(made);
    // What the first call took is gone from this budget: a budget only just too small for it refuses the kept result.
    expect(budget.take(10_000)).toBe(false);
    const tooSmall = JSON.parse(text(tool.callToJson({ word: 'ridge' }, answerBudget(10)))) as { isError: boolean; content: { text: string }[] };
    expect(tooSmall.isError).toBe(true);
    expect(tooSmall.content[0]?.text).toContain('more than the');
  });
});
