import type { Insights } from '../../../domain/schemas/insights.ts';
import { INSIGHT_SECTIONS, insightsArgumentsSchema, insightsResultSchema } from '../../../domain/schemas/mcp-tools.ts';
import { defineTool, type McpTool } from './define-tool.ts';

export function getInsightsTool(insights: Insights): McpTool {
  const whole = JSON.stringify(insights);
  return defineTool({
    name: 'get_insights',
    title: 'Review insights',
    description:
      'What the verified reviews say, derived from them at build time (the /insights.json document). Sections: ' +
      'aspects (sentiment per aspect: workmanship, timeliness, communication, price, cleanup, professionalism, estimate, ' +
      'insurance, warranty, materials; mentions, positive/neutral/negative counts, a score from -1 to 1, a trend by quarter, ' +
      'quotes with review ids); entities (technicians, services and service areas with mention counts, average rating and ' +
      'sentiment: use it to compare technicians or services); topics (recurring phrases); faq (questions answered from the ' +
      'reviews, with review ids); rankings (most praised and most criticised aspects, best reviewed technicians and services, ' +
      'ordered by the lower 95% confidence bound of their share, only from a minimum of mentions: use it for "best" and "worst" questions); ' +
      'analyzer (how the sentiment analysis was measured: method, date, F1 on text it was not tuned on); ' +
      'summary (editorial text and generated highlights). ' +
      `Give section (${INSIGHT_SECTIONS.join(', ')}) for one part, as {<section>: ...}; leave it out for the whole document.`,
    input: insightsArgumentsSchema,
    output: insightsResultSchema,
    whenTooLarge: `Ask for one section at a time (${INSIGHT_SECTIONS.join(', ')}), or fetch /insights.json over HTTP.`,
    run: ({ section }) =>
      section === undefined ? { ok: true, value: insights, text: whole } : { ok: true, value: { [section]: insights[section] } },
  });
}
