/**
 * Each step of the pipeline on its own: called with an exchange and a `next` that
 * records whether it ran, the way compose() calls it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { Answer } from '../../../../src/server/http/answer.ts';
import { compose, type Exchange, type Result, type Route } from '../../../../src/server/http/pipeline.ts';
import { READ_METHODS, route } from '../../../../src/server/http/route.ts';
import { allowedMethods } from '../../../../src/server/http/steps/allowed-methods.ts';
import { identityCoding } from '../../../../src/server/http/steps/content-coding.ts';
import { percentEncoding } from '../../../../src/server/http/steps/percent-encoding.ts';
import { preflight } from '../../../../src/server/http/steps/preflight.ts';
import { requestTarget } from '../../../../src/server/http/steps/request-target.ts';
import { routing } from '../../../../src/server/http/steps/routing.ts';
import { unexpectedError } from '../../../../src/server/http/steps/unexpected-error.ts';

const NEXT_ANSWER: Answer = { status: 299, headers: {} };

function exchangeOf(request: { method?: string; url?: string; headers?: Record<string, string>; rawHeaders?: string[] }, routeOf?: Route): Exchange {
  const headers = request.headers ?? {};
  const req = {
    method: request.method ?? 'GET',
    url: request.url ?? '/',
    headers,
    rawHeaders: request.rawHeaders ?? Object.entries(headers).flat(),
  } as unknown as IncomingMessage;
  const res = { destroyed: false, headersSent: false } as unknown as ServerResponse;
  return { req, res, url: new URL(`http://localhost${request.url ?? '/'}`), params: {}, route: routeOf };
}

/** Runs `step`; the outcome, and whether it handed on. */
async function run(step: (exchange: Exchange, next: () => Result) => Result, exchange: Exchange) {
  let handedOn = false;
  const answer = await step(exchange, () => {
    handedOn = true;
    return NEXT_ANSWER;
  });
  return { answer, handedOn };
}

const jsonOf = (answer: Answer | undefined) => JSON.parse(String(answer?.body)) as { error: string; issues?: { path: string; code: string }[] };
const readRoute = route({ name: 'r', path: '/r/:id', methods: READ_METHODS, handle: () => undefined });

describe('compose', () => {
  it('runs the steps in order, each when the one before calls next, and gives back the answer', async () => {
    const order: string[] = [];
    const answer = await compose<Exchange>([
      async (_e, next) => {
        order.push('a');
        return next();
      },
      (_e, next) => {
        order.push('b');
        return next();
      },
      () => {
        order.push('c');
        return NEXT_ANSWER;
      },
      () => {
        order.push('never');
        return undefined;
      },
    ])(exchangeOf({}));
    expect([order, answer]).toEqual([['a', 'b', 'c'], NEXT_ANSWER]);
  });
});

describe('request-target', () => {
  it('serves an absolute-form target as its path, with its authority for Host', async () => {
    const exchange = exchangeOf({ url: 'http://example.test:8080/api/reviews/search?rating=5' });
    const { handedOn } = await run(requestTarget, exchange);
    expect([handedOn, exchange.req.url, exchange.req.headers.host, exchange.url.pathname, exchange.url.search]).toEqual([
      true, '/api/reviews/search?rating=5', 'example.test:8080', '/api/reviews/search', '?rating=5',
    ]);
  });

  it('refuses two Host lines and a target in no form it serves', async () => {
    const doubled = await run(requestTarget, exchangeOf({ rawHeaders: ['Host', 'a', 'host', 'b'] }));
    expect([doubled.handedOn, doubled.answer?.status, jsonOf(doubled.answer).issues?.[0]?.code]).toEqual([false, 400, 'repeated_header']);
    const odd = await run(requestTarget, exchangeOf({ url: 'mailto:x@y' }));
    expect([odd.answer?.status, jsonOf(odd.answer).issues?.[0]?.code]).toEqual([400, 'invalid_request_target']);
  });

  it('reads percent-encoded letters in the path as the letters (RFC 3986 6.2.2.2), but not a dot or a slash', async () => {
    const exchange = exchangeOf({ url: '/api/reviews/%73earch/%2e%2e%2Fx?q=%73' });
    await run(requestTarget, exchange);
    expect([exchange.url.pathname, exchange.url.search]).toEqual(['/api/reviews/search/%2e%2e%2Fx', '?q=%73']);
  });
});

describe('routing', () => {
  it('chooses the first route whose path matches, with its parameters as sent', async () => {
    const other = route({ name: 'other', path: '/*', methods: READ_METHODS, handle: () => undefined });
    const exchange = exchangeOf({ url: '/r/a%20b/' });
    await run(routing([readRoute, other]), exchange);
    expect([exchange.route?.name, exchange.params]).toEqual(['r', { id: 'a%20b' }]);
    const elsewhere = exchangeOf({ url: '/r/a/b' });
    await run(routing([readRoute, other]), elsewhere);
    expect(elsewhere.route?.name).toBe('other');
  });
});

describe('percent-encoding', () => {
  it('refuses a target that does not decode, as JSON naming the URL', async () => {
    const { answer, handedOn } = await run(percentEncoding, exchangeOf({ url: '/r/1?q=%zz' }, readRoute));
    expect([handedOn, answer?.status, jsonOf(answer).issues?.[0]]).toEqual([false, 400, expect.objectContaining({ path: 'url', code: 'malformed_percent_encoding' })]);
  });

  it('hands it on to a route that names the parameter, or escaped, with the query as sent, to one that takes it so', async () => {
    const named = route({ name: 'n', path: '/n', methods: READ_METHODS, malformed: 'named', handle: () => undefined });
    expect((await run(percentEncoding, exchangeOf({ url: '/n?q=%zz' }, named))).handedOn).toBe(true);
    const escaped = route({ name: 'e', path: '/e', methods: READ_METHODS, malformed: 'escaped', handle: () => undefined });
    const exchange = exchangeOf({ url: '/e?q=%zz&r=5' }, escaped);
    expect((await run(percentEncoding, exchange)).handedOn).toBe(true);
    expect(exchange.rawQuery).toBe('?q=%zz&r=5');
    expect(() => decodeURI(exchange.url.search)).not.toThrow();
    // The path itself must decode, whatever the route.
    expect((await run(percentEncoding, exchangeOf({ url: '/e%zz' }, escaped))).answer?.status).toBe(400);
  });
});

describe('preflight and allowed-methods', () => {
  it('answers a preflight for the public routes, and leaves one to a route that answers its own', async () => {
    const { answer } = await run(preflight, exchangeOf({ method: 'OPTIONS', headers: { 'access-control-request-headers': 'if-none-match' } }, readRoute));
    expect([answer?.status, answer?.headers['Access-Control-Allow-Origin'], answer?.headers['Access-Control-Allow-Headers']]).toEqual([204, '*', 'if-none-match']);
    const own = route({ name: 'o', path: '/o', methods: 'any', preflight: 'own', handle: () => undefined });
    expect((await run(preflight, exchangeOf({ method: 'OPTIONS' }, own))).handedOn).toBe(true);
    expect((await run(preflight, exchangeOf({ method: 'GET' }, readRoute))).handedOn).toBe(true);
  });

  it('answers a method the route does not serve with a JSON 405 naming the ones it does', async () => {
    const { answer } = await run(allowedMethods, exchangeOf({ method: 'DELETE' }, readRoute));
    expect([answer?.status, answer?.headers.Allow, jsonOf(answer).error]).toEqual([405, 'GET, HEAD', 'method_not_allowed']);
    expect((await run(allowedMethods, exchangeOf({ method: 'HEAD' }, readRoute))).handedOn).toBe(true);
  });
});

describe('content-coding', () => {
  const step = identityCoding((coding) => ({ status: 415, headers: {}, body: coding }));
  it('refuses a body with a content coding, in the route\'s words, and takes none or identity', async () => {
    expect((await run(step, exchangeOf({ method: 'POST', headers: { 'content-encoding': 'gzip' } }))).answer).toEqual({ status: 415, headers: {}, body: 'gzip' });
    expect((await run(step, exchangeOf({ method: 'POST', headers: { 'content-encoding': 'identity' } }))).handedOn).toBe(true);
    expect((await run(step, exchangeOf({ method: 'POST' }))).handedOn).toBe(true);
  });
});

describe('unexpected-error', () => {
  it('answers a throw, thrown at once or later, with a plain 500, and logs it', async () => {
    for (const failing of [() => { throw new Error('boom'); }, () => Promise.reject(new Error('boom'))]) {
      const written: unknown[] = [];
      const exchange = exchangeOf({});
      Object.assign(exchange.res, { writeHead: (status: number) => written.push(status), end: (text: string) => written.push(text) });
      const errors: unknown[] = [];
      const original = console.error;
      console.error = (...args: unknown[]) => errors.push(args);
      try {
        await unexpectedError(exchange, failing as () => Result);
      } finally {
        console.error = original;
      }
      expect(written).toEqual([500, 'Internal server error\n']);
      expect(errors).toHaveLength(1);
    }
  });
});
