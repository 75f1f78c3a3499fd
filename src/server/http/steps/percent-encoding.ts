/**
 * A target whose percent-encoding does not decode (a stray %, bytes that are no
 * UTF-8) is refused with the API's JSON 400, unless the route says it deals with
 * it (see Route.malformed): search and since name the parameter at fault, and the
 * review browser, a page for people, names it on the page.
 */
import { escapeMalformedPairs } from '../../../domain/catalog/percent-encoding.ts';
import { apiErrorAnswer } from '../api-error.ts';
import type { Step } from '../pipeline.ts';

const MESSAGE = 'The URL has a malformed percent-encoding: each % must be followed by two hex digits that encode UTF-8.';
const MALFORMED_URL = apiErrorAnswer(400, 'bad_request', MESSAGE, {
  issues: [{ path: 'url', code: 'malformed_percent_encoding', message: MESSAGE }],
});

function decodes(text: string): boolean {
  try {
    decodeURI(text);
    return true;
  } catch {
    return false;
  }
}

export const percentEncoding: Step = (exchange, next) => {
  const { url, route } = exchange;
  const target = exchange.req.url ?? '/';
  // Without a %, there is nothing to decode (the common request: no try, no copy).
  if (route?.malformed === 'named' || !target.includes('%') || decodes(target)) return next();
  if (route?.malformed !== 'escaped' || !decodes(url.pathname)) return MALFORMED_URL;
  // The pairs that do not decode reach the route escaped; the query as sent goes beside them.
  exchange.rawQuery = url.search;
  exchange.req.url = `${url.pathname}${escapeMalformedPairs(url.search)}`;
  exchange.url = new URL(`http://localhost${exchange.req.url}`);
  return next();
};
