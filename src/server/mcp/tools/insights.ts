import type { Insights } from '../../../domain/schemas/insights.ts';
import { INSIGHT_SECTIONS, insightsArgumentsSchema, insightsResultSchema } from '../../../domain/schemas/mcp-tools.ts';
import { defineTool, type McpTool } from './define-tool.ts';

export function getInsightsTool(insights: Insights): McpTool {
  const whole = JSON.stringify(insights);
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
      '(editorial text and highlights). Give section for one part; leave it out for the whole document.',
    input: insightsArgumentsSchema,
    output: insightsResultSchema,
    whenTooLarge: `Ask for one section at a time (${INSIGHT_SECTIONS.join(', ')}), or fetch /insights.json over HTTP.`,
    run: ({ section }) =>
      section === undefined ? { ok: true, value: insights, text: whole } : { ok: true, value: { [section]: insights[section] } },
  });
}
