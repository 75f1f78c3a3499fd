/**
 * `npm run publish` after a build and deploy: says what changed since the last
 * publish, pings the hub for each changed topic, and records a topic as published
 * only once the hub accepted its ping. A failed run exits non-zero and leaves the
 * failed topics unrecorded, so running it again finishes the job; a run with
 * nothing new pings nothing.
 */
import { publishReport, reviewChanges, type ReviewLike, type TopicChange } from '../../../domain/websub/publish-report.ts';
import { hubUrl as defaultHubUrl } from '../../../domain/websub/topics.ts';
import { TOPIC_PATHS } from '../../../domain/site-urls.ts';
import { fetchLiveTopics, readBuild, readSnapshot, recordSnapshot, type TopicBytes } from './topic-readers.ts';

export interface PublishOptions {
  outDir: string;
  stateDir: string;
  /** Compare with this live site instead of the snapshot. */
  against?: string;
  /** Ping this hub instead of the one at the build's SITE_URL. */
  hub?: string;
  dryRun: boolean;
  timeoutMs: number;
  print: (line: string) => void;
}

function reviewsOf(bytes: Buffer | undefined): ReviewLike[] {
  if (!bytes) return [];
  try {
    const parsed = JSON.parse(bytes.toString('utf8')) as { reviews?: ReviewLike[] };
    return Array.isArray(parsed.reviews) ? parsed.reviews : [];
  } catch {
    return [];
  }
}

function topicChange(before: Buffer | undefined, after: Buffer | undefined): TopicChange['change'] {
  if (!after) return before ? 'gone' : 'unchanged';
  if (!before) return 'new';
  return before.equals(after) ? 'unchanged' : 'changed';
}

/** Asks the hub to distribute one topic; resolves only on 202. */
async function pingHub(hub: string, topicUrl: string, timeoutMs: number): Promise<void> {
  const res = await fetch(hub, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ 'hub.mode': 'publish', 'hub.url': topicUrl }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  if (res.status !== 202) {
    let message = text.trim();
    try {
      message = (JSON.parse(text) as { message?: string }).message ?? message;
    } catch {
      // Not our JSON error shape: show the body as it came.
    }
    throw new Error(`the hub answered ${res.status}: ${message.slice(0, 300)}`);
  }
}

/** Runs a publish; the process exit code (0 done or nothing to do, 1 failed). */
export async function runPublish(options: PublishOptions): Promise<number> {
  const { print } = options;
  const build = readBuild(options.outDir);
  const baseline: TopicBytes = options.against ? await fetchLiveTopics(options.against, options.timeoutMs) : readSnapshot(options.stateDir);
  const hub = options.hub ?? defaultHubUrl(build.siteUrl);
  print(`Publishing ${build.siteUrl} from ${options.outDir}, compared with ${options.against ?? `the snapshot in ${options.stateDir}`}.`);

  const topics = TOPIC_PATHS.map((path) => ({ path, url: `${build.siteUrl}${path}`, bytes: build.topics.get(path), change: topicChange(baseline.get(path), build.topics.get(path)) }));
  const reviews = reviewChanges(reviewsOf(baseline.get('/reviews.json')), reviewsOf(build.topics.get('/reviews.json')));
  for (const line of publishReport(reviews, topics)) print(line);

  const toPing = topics.filter((topic) => topic.change === 'new' || topic.change === 'changed');
  if (toPing.length === 0) return 0;
  if (options.dryRun) {
    print('Dry run: no hub pinged, nothing recorded.');
    return 0;
  }
  print(`Pinging the hub at ${hub}:`);
  let failed = 0;
  for (const topic of toPing) {
    try {
      await pingHub(hub, topic.url, options.timeoutMs);
      recordSnapshot(options.stateDir, topic.path, topic.bytes as Buffer);
      print(`  ${topic.url}: accepted, recorded as published`);
    } catch (error) {
      failed++;
      const cause = (error as Error & { cause?: Error }).cause;
      print(`  ${topic.url}: FAILED (${(error as Error).message}${cause ? `: ${cause.message}` : ''})`);
    }
  }
  if (failed > 0) {
    print(`${failed} of ${toPing.length} pings failed; those topics are not recorded. Run \`npm run publish\` again to finish.`);
    return 1;
  }
  print(`Done: ${toPing.length} topic${toPing.length === 1 ? '' : 's'} published.`);
  return 0;
}
