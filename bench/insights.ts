/**
 * The cost of what the build derives from all the reviews at once: `insightsDocument`
 * (/insights.json and the insights page) and the home page's `confidentQuotes`, on a
 * site of BENCH_REVIEWS generated reviews (default 100,000), built once (that takes
 * minutes: the aspect analysis of each review). Each is timed over BENCH_ROUNDS rounds
 * (default 5), in wall-clock and CPU time (this process's, all threads: on a shared
 * machine the CPU time varies less); the document's digest shows whether two runs
 * (before and after a change, say) made the same bytes.
 *
 *   npm run bench -- insights
 */
import { createHash } from 'node:crypto';
import { validateContent } from '../src/domain/content/validate.ts';
import { confidentQuotes } from '../src/domain/insights/confident-quotes.ts';
import { insightsDocument } from '../src/domain/insights/document.ts';
import { analyzeReviewAspects } from '../src/domain/insights/review-aspects.ts';
import { buildSite } from '../src/domain/site.ts';
import { generateContent } from './generate-content.ts';
import { BENCH_SITE_URL } from './support/site.ts';
import { fmt, markdownTable } from './support/table.ts';

const COUNT = Number(process.env.BENCH_REVIEWS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
/** As many as the home page shows. */
const QUOTES = 4;

const buildStarted = performance.now();
const checked = validateContent(generateContent(COUNT));
if (!checked.ok) throw new Error(`generated content is invalid: ${checked.problems.slice(0, 3).map((p) => p.message).join('; ')}`);
const site = buildSite(checked.content, BENCH_SITE_URL, analyzeReviewAspects(checked.content.aspectVocabulary));
console.log(`Built a site of ${fmt(COUNT)} generated reviews in ${fmt((performance.now() - buildStarted) / 1000, 1)} s.`);

const digest = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16);
const measured = {
  insightsDocument: { times: [] as number[], cpu: [] as number[], digest: '' },
  confidentQuotes: { times: [] as number[], cpu: [] as number[], digest: '' },
};
const runs: [keyof typeof measured, () => unknown][] = [
  ['insightsDocument', () => insightsDocument(site)],
  ['confidentQuotes', () => confidentQuotes(site.reviews, QUOTES)],
];
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, run] of runs) {
    const cpu = process.cpuUsage();
    const started = performance.now();
    const result = run();
    measured[name].times.push(performance.now() - started);
    const used = process.cpuUsage(cpu);
    measured[name].cpu.push((used.user + used.system) / 1000);
    const made = digest(result);
    if (measured[name].digest && measured[name].digest !== made) throw new Error(`${name} made different output in round ${round + 1}`);
    measured[name].digest = made;
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
console.log(`\n${fmt(COUNT)} reviews, ${ROUNDS} rounds (the first one includes warm-up):\n`);
console.log(
  markdownTable(
    ['function', 'first ms', 'median ms', 'min ms', 'median CPU ms', 'output sha256'],
    Object.entries(measured).map(([name, { times, cpu, digest: made }]) => [
      name,
      fmt(times[0] as number),
      fmt(median(times)),
      fmt(Math.min(...times)),
      fmt(median(cpu)),
      made,
    ]),
  ),
);
