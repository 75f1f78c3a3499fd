/**
 * get_insights: the insights document by section. The whole document passes an
 * agent's budget on a real site (the sample's is 31,000 tokens as a tool result),
 * so without `section` the answer is the whole document only when it fits, and
 * otherwise a summary: the sections that fit, most useful first, and a note that
 * names the others with their size and how to ask for each.
 */
import type { Insights } from '../../../domain/schemas/insights.ts';
import { INSIGHT_SECTIONS, insightsArgumentsSchema, insightsResultSchema } from '../../../domain/schemas/mcp-tools.ts';
import { countEscapedTokens, countTokens } from '../../../domain/tokens.ts';
import { runSteps } from '../../../domain/catalog/catalog-builder.ts';
import { budgetWords, type ResultBudget } from '../result-budget.ts';
import { defineTool, type McpTool } from './define-tool.ts';

type Section = (typeof INSIGHT_SECTIONS)[number];

/** The order in which a summary takes sections: the short answers to most questions first. */
const SUMMARY_ORDER: readonly Section[] = ['summary', 'rankings', 'topics', 'analyzer', 'entities', 'faq', 'aspects'];

/** Tokens of a piece of JSON text in both copies of a result (as JSON, and escaped in the text copy). */
const inBothCopies = (json: string) => countTokens(json) + countEscapedTokens(json);

const counted = new WeakMap<Insights, ReadonlyMap<string, number>>();

/**
 * Tokens of each top-level member `"name":value` in both copies of a result, with
 * the comma after it in each, counted a child of its value at a time: an array's
 * items, an object's members, and a token per byte of the brackets and commas
 * between them. The sum of the parts bounds the whole (see tokens.ts), and a
 * switch counts them a slice at a time: at 100,000 reviews the aspects alone are
 * 45 KB, 50 ms of counting at once.
 */
export function* insightsTokenSteps(insights: Insights): Generator<void, ReadonlyMap<string, number>> {
  const known = counted.get(insights);
  if (known) return known;
  const tokens = new Map<string, number>();
  for (const [name, value] of Object.entries(insights)) {
    let total = inBothCopies(`${JSON.stringify(name)}:`) + 2;
    if (value !== null && typeof value === 'object') {
      const children = Array.isArray(value)
        ? value.map((item) => JSON.stringify(item))
        : Object.entries(value as object).map(([key, item]) => `${JSON.stringify(key)}:${JSON.stringify(item)}`);
      total += 2 * (2 + Math.max(0, children.length - 1));
      for (const child of children) {
        total += inBothCopies(child);
        yield;
      }
    } else total += inBothCopies(JSON.stringify(value));
    tokens.set(name, total);
  }
  counted.set(insights, tokens);
  return tokens;
}

/** The sentence after a summary: what it leaves out and how to get it. */
function summaryNote(left: readonly Section[], tokens: ReadonlyMap<string, number>, budget: ResultBudget): string {
  const sizes = left.map((section) => `${section} (about ${(tokens.get(section) as number).toLocaleString('en-US')} tokens)`).join(', ');
  return (
    `The whole insights document is over this server's result budget of ${budgetWords(budget)}, so this is a summary: ` +
    `it leaves out ${sizes}. Call get_insights with {"section": "<name>"} for each of them; the whole document is /insights.json over HTTP.`
  );
}

export function getInsightsTool(insights: Insights, budget: ResultBudget): McpTool {
  // Counted once per build: each top-level member in both copies (the sections, the business and the source counts).
  const tokens = runSteps(insightsTokenSteps(insights));
  const sum = (names: readonly string[]) => names.reduce((total, name) => total + (tokens.get(name) ?? 0), 0);
  const always = Object.keys(insights).filter((name) => !(INSIGHT_SECTIONS as readonly string[]).includes(name));
  const fitsWhole = sum(Object.keys(insights)) <= budget.contentTokens;
  const summarized = (() => {
    if (fitsWhole) return undefined;
    const kept = new Set<string>(always);
    // The note is counted one token per byte, at its longest (every section left out).
    let used = sum(always) + 2 * summaryNote(INSIGHT_SECTIONS, tokens, budget).length;
    for (const section of SUMMARY_ORDER) {
      const size = tokens.get(section) ?? 0;
      if (used + size > budget.contentTokens) continue;
      kept.add(section);
      used += size;
    }
    const value = Object.fromEntries(Object.entries(insights).filter(([name]) => kept.has(name))) as Partial<Insights>;
    return { value, note: summaryNote(SUMMARY_ORDER.filter((section) => !kept.has(section)), tokens, budget) };
  })();
  const sectionFits = (section: Section) => sum([section]) <= budget.contentTokens;
  return defineTool({
    name: 'get_insights',
    title: 'Review insights',
    // The section names are the input's enum and the aspect ids the output's: said once, there.
    description:
      'What the verified reviews say, derived at build time (the /insights.json document), by section: aspects (sentiment ' +
      'per aspect, with a trend by quarter and quotes); entities (technicians, services and service areas: mentions, average ' +
      'rating, sentiment; to compare them); topics (recurring phrases); faq (answers with review ids); rankings (most praised ' +
      'and criticised aspects, best reviewed technicians and services, by the lower 95% confidence bound of their share, from ' +
      'a minimum of mentions: for "best" and "worst" questions); analyzer (how the sentiment analysis was measured); summary ' +
      `(editorial text and highlights). Give section for one part. Without it: the whole document if it fits in ${budgetWords(budget)}, ` +
      'else a summary of the sections that fit, with a note naming the others and their size.',
    input: insightsArgumentsSchema,
    output: insightsResultSchema,
    whenTooLarge: `Ask for one section at a time (${INSIGHT_SECTIONS.join(', ')}), or fetch /insights.json over HTTP.`,
    run: ({ section }) => {
      if (section === undefined) return summarized === undefined ? { ok: true, value: insights } : { ok: true, ...summarized };
      if (!sectionFits(section)) {
        return {
          ok: false,
          message: `The ${section} section is about ${sum([section]).toLocaleString('en-US')} tokens, over this server's result budget of ${budgetWords(budget)}; it is in /insights.json over HTTP.`,
        };
      }
      return { ok: true, value: { [section]: insights[section] } };
    },
  });
}
