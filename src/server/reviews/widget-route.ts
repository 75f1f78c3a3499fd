/**
 * GET /api/widget: the small document the embeddable widget reads (src/widget),
 * for the same parameters as the widget's attributes. An answer depends on the
 * served build and the parameters alone, so each is made once per build and kept,
 * with a strong ETag from its bytes for conditional GET.
 */
import { createHash } from 'node:crypto';
import { toByteString } from '../../domain/byte-string.ts';
import { malformedQueryIssues } from '../../domain/catalog/percent-encoding.ts';
import { serializeJson } from '../../domain/datasets.ts';
import { siteUrls } from '../../domain/site-urls.ts';
import { widgetDocument } from '../../domain/widget/widget-document.ts';
import { parseWidgetParams, widgetQueryKey } from '../../domain/widget/widget-query.ts';
import { catalogOf } from '../builds/served-catalog.ts';
import { servedBuild } from '../builds/served-build.ts';
import { answerCache, type AnswerCache, type CachedAnswer } from '../http/answer-cache.ts';
import type { Answer } from '../http/answer.ts';
import { etagFamily, isNotModified, lastModifiedOf, type ConditionalHeaders } from '../http/conditional.ts';
import { READ_METHODS, route } from '../http/route.ts';
import { invalidQuery, publicHeaders } from './review-routes.ts';

/** Bytes of widget documents kept per build: a document is 1 to 10 KB, so a few hundred views. */
export const WIDGET_CACHE_BYTES = 2 * 1024 * 1024;
const WIDGET_ANSWERS = Symbol('widget-answers');

function widgetAnswer(url: URL, conditional: ConditionalHeaders): Answer {
  const build = servedBuild();
  const request = { url, siteUrl: build.manifest.siteUrl };
  const malformed = malformedQueryIssues(url.search);
  if (malformed.length) return invalidQuery(request, malformed);
  const catalog = catalogOf(build);
  const parsed = parseWidgetParams(catalog, url.searchParams);
  if (!parsed.ok) return invalidQuery(request, parsed.issues);

  const answers = build.memo<AnswerCache>(WIDGET_ANSWERS, () => answerCache(WIDGET_CACHE_BYTES));
  const key = widgetQueryKey(parsed.value);
  let answer: CachedAnswer | undefined = answers.get(key);
  if (!answer) {
    const bytes = toByteString(serializeJson(widgetDocument(catalog, parsed.value, siteUrls(build.manifest.siteUrl))));
    const headers: Record<string, string> = { ...publicHeaders(request), ETag: `"${createHash('sha256').update(bytes, 'latin1').digest('hex').slice(0, 32)}"` };
    const lastModified = lastModifiedOf(catalog.updated);
    if (lastModified) headers['Last-Modified'] = lastModified.toUTCString();
    answer = { status: 200, headers, body: { bytes: [bytes] } };
    answers.set(key, answer);
  }
  const { ETag: etag, 'Content-Type': _type, ...validators } = answer.headers;
  const lastModified = validators['Last-Modified'];
  if (isNotModified(conditional, { etags: etagFamily(etag as string), lastModified: lastModified ? new Date(lastModified) : undefined })) {
    return { status: 304, headers: { ...validators, ETag: etag as string } };
  }
  return answer;
}

export const widgetRoute = route({
  name: 'widget',
  path: '/api/widget',
  methods: READ_METHODS,
  malformed: 'named',
  compress: 'if-accepted',
  handle: ({ url, req }) => widgetAnswer(url, { ifNoneMatch: req.headers['if-none-match'], ifModifiedSince: req.headers['if-modified-since'] }),
});
