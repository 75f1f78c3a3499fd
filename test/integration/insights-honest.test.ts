/**
 * Owner corrections and honest rankings over a real build, read as clients read them:
 * /reviews.json, /insights.json, the insights page and MCP get_insights. The content is
 * generated: owner corrections pin most labels exactly, so the rankings below are
 * known whatever the analyzer does with the few sentences left to it.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, isBuildCurrent } from '../../src/build/build-site.ts';
import { ASPECT_WORDING } from '../../src/domain/insights/aspect-labels.ts';
import { QUOTE_MIN_CONFIDENCE } from '../../src/domain/insights/quotes.ts';
import { analyzeReviewAspects } from '../../src/domain/insights/review-aspects.ts';
import { reviewsDatasetSchema } from '../../src/domain/schemas/datasets.ts';
import { insightsSchema, type Insights } from '../../src/domain/schemas/insights.ts';
import { ASPECTS, type Review } from '../../src/domain/schemas/review.ts';
import { PROJECT_ROOT, TEST_SITE_URL } from '../support/build.ts';
import { launchChromium } from '../support/browser.ts';
import { rawRequest } from '../support/http.ts';
import { startServer, type RunningServer } from '../support/server.ts';

type Labels = Partial<Record<(typeof ASPECTS)[number], 'positive' | 'negative' | 'neutral' | 'none'>>;
interface Spec {
  rating: number;
  technicians?: string[];
  services?: string[];
  labels: Labels;
  text?: string;
}

const FILLER = 'We hired them in May.';
// Deliberately contrary to its text, so that the owner's label cannot coincide with the analyzer's.
const CORRECTED_TEXT = 'The roof leaks badly and the shingles they sold us are cheap junk.';
/**
 * Professionalism is left to the analyzer in r01-r05: one complaint it is unsure of and four
 * praises it is sure of, picked from candidates by the analyzer the build uses, so that the
 * test keeps a case to check whatever the model's figures become.
 */
const UNSURE_CANDIDATES = [
  'Not sure the crew were as polite as they could have been.',
  'Some of the workers were a bit brusque.',
  'One of the guys was kind of short with my wife.',
  'The crew seemed a bit impatient with us.',
  'I guess one guy was kind of rude, maybe.',
  'A worker was maybe slightly curt on the phone.',
  'Possibly the crew could have been a touch more courteous.',
  'I am not certain the workers were entirely respectful.',
  'The crew was perhaps a little less polite than I hoped.',
  'Hard to say, but one worker may have been a bit dismissive.',
  'The crew was a little rude.',
  'The crew played music a bit loud.',
];
const SURE_CANDIDATES = [
  'Very courteous crew, truly professional.',
  'The crew was extremely polite and professional.',
  'Respectful, polite workers who treated our home with care.',
  'The foreman was courteous and professional the whole time.',
  'Friendly, professional crew.',
  'The crew were polite and respectful.',
  'Everyone on the crew was courteous.',
  'Such a professional and respectful team.',
];

function professionalismSentences(): Record<number, string> {
  const analyze = analyzeReviewAspects(null);
  const reads = (text: string, sentiment: string, sure: boolean) =>
    analyze(text).some((l) => l.aspect === 'professionalism' && l.sentiment === sentiment && l.confidence >= QUOTE_MIN_CONFIDENCE === sure) &&
    analyze(text).every((l) => l.aspect === 'professionalism');
  const unsure = UNSURE_CANDIDATES.find((text) => reads(text, 'negative', false));
  const sure = SURE_CANDIDATES.filter((text) => reads(text, 'positive', true)).slice(0, 4);
  if (!unsure || sure.length < 4) throw new Error('add candidate sentences: the analyzer no longer reads enough of them as needed');
  return { 1: unsure, 2: sure[0]!, 3: sure[1]!, 4: sure[2]!, 5: sure[3]! };
}
const PROFESSIONALISM = professionalismSentences();

/**
 * 20 reviews. By raw share cleanup (6/6) would be most praised and price (3/5) most criticised;
 * by the Wilson bound timeliness (18/19) and communication (8/16) are. Warranty (4/4) is under
 * the minimum. Ann (3/3 happy) would top Bob (11/12) by share or average; Cat (2) is under the minimum.
 */
function specs(): Spec[] {
  const out: Spec[] = [];
  for (let n = 1; n <= 20; n += 1) {
    const labels: Labels = {};
    if (n <= 18) labels.timeliness = 'positive';
    if (n === 19) labels.timeliness = 'negative';
    if (n <= 6) labels.cleanup = 'positive';
    if (n >= 7 && n <= 10) labels.warranty = 'positive';
    if (n >= 11 && n <= 13) labels.price = 'negative';
    if (n === 14 || n === 15) labels.price = 'positive';
    if (n <= 8) labels.communication = 'negative';
    if (n >= 9 && n <= 16) labels.communication = 'positive';
    for (const aspect of ASPECTS) if (!(aspect === 'professionalism' && PROFESSIONALISM[n])) labels[aspect] ??= 'none';
    const who = n <= 12 ? { technicians: ['bob'], services: ['repair'] } : n <= 15 ? { technicians: ['ann'], services: ['gutters'] } : n <= 17 ? { technicians: ['cat'], services: ['gutters'] } : {};
    out.push({ rating: n === 12 ? 1 : n <= 17 ? 5 : 4, ...who, labels, text: PROFESSIONALISM[n] ?? FILLER });
  }
  // r21: the owner corrects workmanship and pins the ranked aspects; the rest stays the analyzer's.
  const pinned = { timeliness: 'none', cleanup: 'none', warranty: 'none', price: 'none', communication: 'none', professionalism: 'none' } as const;
  out.push({ rating: 4, labels: { workmanship: 'positive', ...pinned }, text: CORRECTED_TEXT });
  return out;
}

const id = (n: number) => `r${String(n + 1).padStart(2, '0')}`;

function writeContent(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, 'reviews'), { recursive: true });
  const business = {
    name: 'Honest Roofing',
    url: 'https://honest.example/',
    services: [
      { id: 'repair', name: 'Roof repair' },
      { id: 'gutters', name: 'Gutters' },
    ],
    technicians: [
      { id: 'ann', name: 'Ann Lee' },
      { id: 'bob', name: 'Bob Ray' },
      { id: 'cat', name: 'Cat Poe' },
    ],
  };
  writeFileSync(path.join(dir, 'business.json'), JSON.stringify(business));
  specs().forEach((spec, n) => {
    const lines = Object.entries(spec.labels).map(([aspect, sentiment]) => `  ${aspect}: ${sentiment}`);
    const front = [
      'author: Customer',
      `rating: ${spec.rating}`,
      `date: 2024-01-${String(n + 1).padStart(2, '0')}`,
      'verified: true',
      'verification: invoice',
      `technicians: [${(spec.technicians ?? []).join(', ')}]`,
      `services: [${(spec.services ?? []).join(', ')}]`,
      'aspects:',
      ...lines,
    ];
    writeFileSync(path.join(dir, 'reviews', `${id(n)}.md`), `---\n${front.join('\n')}\n---\n${spec.text ?? FILLER}\n`);
  });
}

let server: RunningServer;
let reviews: Review[];
let insights: Insights;
let insightsPage: string;

beforeAll(async () => {
  const contentDir = path.join(PROJECT_ROOT, 'tmp/test-content/insights-honest');
  writeContent(contentDir);
  const build = { projectRoot: PROJECT_ROOT, contentDir, siteUrl: TEST_SITE_URL, outDir: path.join(PROJECT_ROOT, 'tmp/test-builds/insights-honest'), stdio: 'pipe' as const };
  if (!isBuildCurrent(build)) await buildSite(build);
  server = await startServer(build.outDir);
  const get = async (p: string) => (await rawRequest(server.url + p)).text;
  reviews = reviewsDatasetSchema.parse(JSON.parse(await get('/reviews.json'))).reviews;
  insights = insightsSchema.parse(JSON.parse(await get('/insights.json')));
  insightsPage = await get('/insights');
});
afterAll(() => server?.stop());

describe('owner corrections in the published data', () => {
  it("replace the analyzer's reading of the corrected aspect and say where each label came from", () => {
    const analyzed = analyzeReviewAspects(null)(CORRECTED_TEXT);
    // Precondition: the analyzer reads this text as bad workmanship, and finds something else too.
    expect(analyzed.filter((l) => l.aspect === 'workmanship').map((l) => l.sentiment)).not.toContain('positive');
    const left = analyzed.filter((l) => !['workmanship', 'timeliness', 'cleanup', 'warranty', 'price', 'communication', 'professionalism'].includes(l.aspect));
    expect(left.length).toBeGreaterThan(0);

    const corrected = reviews.find((r) => r.id === 'r21');
    expect(corrected?.aspects).toEqual([
      ...left.map((l) => ({ ...l, source: 'analyzer' })),
      { aspect: 'workmanship', sentiment: 'positive', score: 1, confidence: 1, excerpt: null, source: 'owner' },
    ]);
  });

  it('are what the insights count: every aspect tallies the published labels', () => {
    for (const aspect of insights.aspects) {
      const labels = reviews.flatMap((r) => r.aspects).filter((l) => l.aspect === aspect.aspect);
      const count = (s: string) => labels.filter((l) => l.sentiment === s).length;
      expect([aspect.mentions, aspect.positive, aspect.neutral, aspect.negative], aspect.aspect).toEqual([labels.length, count('positive'), count('neutral'), count('negative')]);
    }
    // Workmanship is mentioned once, positively: the owner's label, where the analyzer read it as negative.
    expect(insights.aspects.find((a) => a.aspect === 'workmanship')).toMatchObject({ mentions: 1, positive: 1, negative: 0 });
  });
});

describe('rankings', () => {
  // Professionalism is the analyzer's reading (see PROFESSIONALISM): left out of exact orders.
  const pinned = (aspects: string[]) => aspects.filter((a) => a !== 'professionalism');

  it('order aspects by the Wilson bound, not the raw share, from 5 mentions', () => {
    expect(pinned(insights.rankings.most_praised.map((r) => r.aspect))).toEqual(['timeliness', 'cleanup', 'communication', 'price']);
    expect(pinned(insights.rankings.most_criticised.map((r) => r.aspect))).toEqual(['communication', 'price', 'timeliness']);
    const ranked = [...insights.rankings.most_praised, ...insights.rankings.most_criticised].map((r) => r.aspect);
    expect(ranked).not.toContain('warranty'); // 4 of 4 positive: under the minimum
    expect(insights.summary.highlights).toContain('Most praised: timeliness (18 of 19 mentions positive; at least 75% with 95% confidence).');
    const faq = (question: string) => insights.faq.find((f) => f.question === question)?.answer;
    expect(faq('What do customers praise most?')).toMatch(/^Timeliness \(18 of 19 mentions positive; at least 75% with 95% confidence\), then cleanup \(6 of 6/);
    expect(faq('What do customers criticise most?')).toMatch(/^Communication \(8 of 16 mentions negative; at least 28% with 95% confidence\), then /);
    expect(insights.summary.highlights).toContain('Most criticised: communication (8 of 16 mentions negative; at least 28% with 95% confidence).');
  });

  it('order technicians and services by the bound on their share of happy reviews, from 3 reviews', () => {
    expect(insights.rankings.technicians.map((r) => [r.id, r.happy_reviews, r.reviews])).toEqual([
      ['bob', 11, 12],
      ['ann', 3, 3],
    ]);
    expect(insights.rankings.services.map((r) => [r.id, r.happy_reviews, r.reviews])).toEqual([
      ['repair', 11, 12],
      ['gutters', 5, 5],
    ]);
    expect(insights.faq.find((f) => f.question === 'Which services get the best reviews?')?.answer).toMatch(/^Roof repair \(11 of 12 .*\), then Gutters \(5 of 5/);
    const best = insights.faq.find((f) => f.question === 'Which technician gets the best reviews?');
    expect(best?.answer).toMatch(/^Bob Ray \(11 of 12 reviews give 4 or 5 stars; at least 65% .*\), then Ann Lee \(3 of 3/);
    expect(best?.answer).not.toContain('Cat Poe');
    expect(best?.review_ids).toEqual(['r12', 'r11', 'r10', 'r09', 'r08']);
  });

  it('are the same on the insights page (in a browser) and through MCP get_insights', async () => {
    const client = new Client({ name: 'insights-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    try {
      const result = await client.callTool({ name: 'get_insights', arguments: { section: 'rankings' } });
      expect(result.structuredContent).toEqual({ rankings: insights.rankings });
    } finally {
      await client.close();
    }
    const browser = await launchChromium();
    const page = await browser.newPage();
    await page.goto(`${server.url}/insights`);
    const rowsOf = (caption: string) =>
      page.$$eval(
        'table',
        (tables, wanted) =>
          [...(tables.find((t) => t.caption?.textContent?.trim() === wanted)?.querySelectorAll('tbody th[scope="row"]') ?? [])].map((th) => th.textContent?.trim() ?? ''),
        caption,
      );
    const label = (aspect: string) => ASPECT_WORDING[aspect as keyof typeof ASPECT_WORDING].label;
    try {
      expect(await rowsOf('Most praised')).toEqual(insights.rankings.most_praised.map((r) => label(r.aspect)));
      expect(await rowsOf('Most criticised')).toEqual(insights.rankings.most_criticised.map((r) => label(r.aspect)));
      expect(pinned(await rowsOf('Most praised'))).toEqual(['timeliness', 'cleanup', 'communication', 'price']);
      expect(await rowsOf('Technicians, best reviewed first')).toEqual(['Bob Ray', 'Ann Lee']);
      expect(await rowsOf('Services, best reviewed first')).toEqual(['Roof repair', 'Gutters']);
      expect(await page.textContent('main')).toContain('Too few reviews to rank: Cat Poe (2)');
    } finally {
      await browser.close();
    }
  });
});

describe('quotes', () => {
  it('never quote a sentence whose label the analyzer is unsure of', () => {
    const margin = insights.analyzer.quote_min_confidence;
    const labelOf = (reviewId: string, excerpt: string) =>
      reviews.find((r) => r.id === reviewId)?.aspects.find((l) => l.excerpt === excerpt);
    expect(margin).toBe(QUOTE_MIN_CONFIDENCE);
    // The unsure complaint is published, as the only complaint about professionalism.
    const complaints = reviews.flatMap((r) => r.aspects).filter((l) => l.aspect === 'professionalism' && l.sentiment === 'negative');
    expect(complaints).toEqual([expect.objectContaining({ excerpt: PROFESSIONALISM[1], source: 'analyzer' })]);
    expect(complaints[0]?.confidence).toBeLessThan(margin);

    const answer = insights.faq.find((f) => f.question === 'Are the crews professional and respectful?');
    expect(answer?.answer).toMatch(/One customer wrote: "/);
    expect(answer?.answer).not.toContain('A less happy one');
    for (const aspect of insights.aspects) {
      for (const quote of aspect.highlights) expect(labelOf(quote.review_id, quote.excerpt)?.confidence).toBeGreaterThanOrEqual(margin);
    }
  });

  it('come with how the analyzer was measured', () => {
    expect(insights.analyzer).toMatchObject({ measured_on: expect.stringMatching(/^\d{4}-\d\d-\d\d$/), sentences: expect.any(Number) });
    expect(insights.analyzer.triple_f1).toBeGreaterThan(0);
    expect(insightsPage).toContain(`F1 ${insights.analyzer.triple_f1.toFixed(2)} for aspect and sentiment together`);
  });
});
