/**
 * Every place that takes a technician or a service accepts the same spellings: the
 * HTTP search's parameters, the review browser's filters, the search_reviews tool,
 * the customer_feedback prompt and its completion. Each is asked with accented and
 * unaccented names, aliases and ids, and must find exactly the same reviews.
 */
import { describe, expect, it } from 'vitest';
import { browseReviews } from '../../../src/domain/catalog/browse.ts';
import { buildReviewCatalog } from '../../../src/domain/catalog/catalog-builder.ts';
import { namedIds } from '../../../src/domain/catalog/review-catalog.ts';
import { searchReviews } from '../../../src/domain/catalog/search.ts';
import { parseSearchParams } from '../../../src/domain/catalog/search-query.ts';
import { insightsDocument } from '../../../src/domain/insights/document.ts';
import { analyzeReviewAspects } from '../../../src/domain/insights/review-aspects.ts';
import { validateContent } from '../../../src/domain/content/validate.ts';
import { reviewsDataset, serializeJson } from '../../../src/domain/datasets.ts';
import type { ReviewsDataset } from '../../../src/domain/schemas/datasets.ts';
import { buildSite } from '../../../src/domain/site.ts';
import { promptSet } from '../../../src/server/mcp/prompts.ts';
import { RESULT_MAX_TOKENS_DEFAULT } from '../../../src/server/config.ts';
import { resultBudget } from '../../../src/server/mcp/result-budget.ts';
import { reviewTools } from '../../../src/server/mcp/tools/index.ts';

const business = {
  name: 'Alias Roofing',
  url: 'https://alias.example',
  // Aliases kept few on purpose: "Tomas Villarreal" and "keisha" must be found by folding, not listed.
  technicians: [
    { id: 'tomas-villarreal', name: 'Tomás Villarreal', aliases: ['Tomás'] },
    { id: 'keisha-downs', name: 'Keisha Downs', aliases: ['Keisha'] },
  ],
  services: [
    { id: 'roof-repair', name: 'Roof repair', aliases: ['leak repair'] },
    { id: 'gutters', name: 'Gutters', aliases: ['gutter guards'] },
  ],
};
const review = (id: string, date: string, extra: string, body: string) => ({
  path: `reviews/${id}.md`,
  text: `---\nauthor: A B.\nrating: 4\ndate: ${date}\nverified: true\nverification: invoice\n${extra}---\n${body}\n`,
});
const checked = validateContent({
  business: { path: 'business.json', text: JSON.stringify(business) },
  reviews: [
    review('tagged', '2024-01-02', 'technicians: [tomas-villarreal]\nservices: [roof-repair]\n', 'They fixed it in an hour.'),
    review('named', '2024-01-03', '', 'Keisha put in gutter guards and was great.'),
    review('neither', '2024-01-04', '', 'A new roof, done well.'),
  ],
});
if (!checked.ok) throw new Error(JSON.stringify(checked.problems));
const site = buildSite(checked.content, 'https://reviews.example.test', analyzeReviewAspects(null));
const catalog = buildReviewCatalog(JSON.parse(serializeJson(reviewsDataset(site))) as ReviewsDataset);
const tools = reviewTools(catalog, { insights: insightsDocument(site) }, resultBudget(RESULT_MAX_TOKENS_DEFAULT, { name: 'reviews', version: '1.0.0' }));
const prompts = promptSet(catalog);

type Case = [spelling: string, id: string, expected: string[]];
const TECHNICIANS: Case[] = [
  ['Tomás Villarreal', 'tomas-villarreal', ['tagged']],
  ['Tomas Villarreal', 'tomas-villarreal', ['tagged']],
  ['  tomas   VILLARREAL ', 'tomas-villarreal', ['tagged']],
  ['Tomas', 'tomas-villarreal', ['tagged']],
  ['tomás', 'tomas-villarreal', ['tagged']],
  ['tomas-villarreal', 'tomas-villarreal', ['tagged']],
  ['keisha', 'keisha-downs', ['named']],
  ['KEISHA DOWNS', 'keisha-downs', ['named']],
];
const SERVICES: Case[] = [
  ['roof-repair', 'roof-repair', ['tagged']],
  ['Roof Repair', 'roof-repair', ['tagged']],
  ['leak repair', 'roof-repair', ['tagged']],
  ['Léak Repair', 'roof-repair', ['tagged']],
  ['gutter guards', 'gutters', ['named']],
  ['GUTTERS', 'gutters', ['named']],
];

const ids = (reviews: readonly { id: string }[]) => reviews.map((r) => r.id).sort();

function httpSearch(param: string, value: string): string[] {
  const parsed = parseSearchParams(catalog, new URLSearchParams({ [param]: value }));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return ids(searchReviews(catalog, parsed.value).response.reviews as { id: string }[]);
}
function toolSearch(param: string, value: string): string[] {
  const result = tools.call('search_reviews', { [param]: value });
  if (result.isError) throw new Error(JSON.stringify(result.content));
  return ids((result.structuredContent as { reviews: { id: string }[] }).reviews);
}
function browse(param: string, value: string): { ids: string[]; described: readonly string[] } {
  const view = browseReviews(catalog, new URLSearchParams({ [param]: value }));
  expect(view.status).toBe(200);
  return { ids: ids(view.reviews), described: view.described };
}
const feedbackText = (subject: string) => (prompts.get('customer_feedback', { subject }).messages[0]?.content as { text: string }).text;

describe.each([
  ['mentions_technician', 'technician', TECHNICIANS],
  ['mentions_service', 'service', SERVICES],
] as const)('%s', (param, kind, cases) => {
  it.each(cases)('%j means %s everywhere', (spelling: string, id: string, expected: string[]) => {
    expect(namedIds(catalog.index, kind, spelling)).toEqual([id]);
    expect(httpSearch(param, spelling)).toEqual(expected);
    expect(toolSearch(param, spelling)).toEqual(expected);
    const page = browse(param, spelling);
    expect(page.ids).toEqual(expected);
    const name = [...business.technicians, ...business.services].find((e) => e.id === id)?.name as string;
    expect(page.described.join(' ')).toContain(name);
    expect(feedbackText(spelling)).toContain(`the ${kind} ${name} (id ${id})`);
    expect(feedbackText(spelling)).toContain(`"${param}":"${id}"`);
  });
});

describe('a name nobody has', () => {
  it('finds no technician, and is an error for a service and the prompt', () => {
    expect(httpSearch('mentions_technician', 'Tomasz')).toEqual([]);
    expect(parseSearchParams(catalog, new URLSearchParams({ mentions_service: 'chimney' }))).toMatchObject({
      ok: false,
      issues: [{ path: 'mentions_service', code: 'unknown_service', message: expect.stringContaining('the known service ids are roof-repair, gutters') }],
    });
    expect(() => prompts.get('customer_feedback', { subject: 'Tomasz' })).toThrow(/is no aspect, service or technician/);
  });
});

describe('completion of the customer_feedback subject', () => {
  const complete = (prefix: string) => prompts.complete({ type: 'ref/prompt', name: 'customer_feedback' }, 'subject', prefix);
  it('offers ids, names and aliases, matching the prefix without accents or case', () => {
    expect(complete('tomas')).toEqual(['tomas-villarreal', 'Tomás Villarreal', 'Tomás']);
    expect(complete('TOMÁS V')).toEqual(['Tomás Villarreal']);
    expect(complete('kei')).toEqual(['keisha-downs', 'Keisha Downs', 'Keisha']);
    expect(complete('leak')).toEqual(['leak repair']);
    // Every value it offers is accepted by the prompt.
    for (const value of complete('')) expect(() => prompts.get('customer_feedback', { subject: value })).not.toThrow();
  });
});
