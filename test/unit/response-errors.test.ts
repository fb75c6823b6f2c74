// The status table and the words of every answer that is not a usable success, one function
// at a time: the class of each status, what an API body says (problem+json, the gateway's
// envelope), what a front end's page means, and the hints, each a different next step.
// test/e2e/status-table.test.ts walks the same table through main() over a socket.
import { describe, expect, it } from 'vitest';
import {
  apiErrorFrom,
  exitClassOf,
  failureUnderSuccess,
  NOT_THE_API,
  proxyCredentialsHint,
  statusText,
  withContextHint,
} from '../../src/api/response-errors.js';
import type { ProxyRoute } from '../../src/api/wire.js';
import { ApiError, ExitCode, type FcastError } from '../../src/core/errors.js';

/** The contract's table, written out apart from the code's. */
function contractClass(status: number): number {
  const named: Record<number, number> = { 401: 3, 403: 3, 407: 3, 404: 4, 410: 4, 408: 6, 409: 9, 429: 5 };
  if (named[status] !== undefined) return named[status];
  if (status >= 400 && status <= 499) return 2;
  if (status >= 500 && status <= 599) return 6;
  return 7;
}

const problem = (status: number, extra: Record<string, unknown> = {}) => ({
  type: 'about:blank',
  title: 'Problem title',
  status,
  detail: 'what went wrong',
  ...extra,
});
const envelope = (code: string, message: string, extra: Record<string, unknown> = {}) => ({
  ok: false,
  error: { code, message, ...extra },
  meta: { request_id: 'req-42' },
});
const route = (credentials: ProxyRoute['credentials']): ProxyRoute => ({
  origin: 'http://proxy.example:3128',
  variable: 'HTTPS_PROXY',
  credentials,
});
const hintOf = (err: unknown) => (err as FcastError).hint;

describe('exitClassOf, the status table', () => {
  it('gives every status from 0 to 999 the class the contract writes, and none exits 1', () => {
    for (let status = 0; status <= 999; status++) {
      expect(exitClassOf(status), String(status)).toBe(contractClass(status));
      expect(exitClassOf(status)).not.toBe(1);
    }
  });

  it('draws the edges of the ranges where the contract does', () => {
    expect(exitClassOf(399)).toBe(ExitCode.BadResponse);
    expect(exitClassOf(400)).toBe(ExitCode.Usage);
    expect(exitClassOf(499)).toBe(ExitCode.Usage);
    expect(exitClassOf(500)).toBe(ExitCode.Unavailable);
    expect(exitClassOf(599)).toBe(ExitCode.Unavailable);
    expect(exitClassOf(600)).toBe(ExitCode.BadResponse);
  });
});

describe('statusText', () => {
  it("is the status's reason phrase, or nothing for a status without one", () => {
    expect(statusText(404)).toBe('Not Found');
    expect(statusText(599)).toBe('');
  });
});

describe('apiErrorFrom, an API body', () => {
  it('names the status, the problem title and detail, with the class of the status', () => {
    const err = apiErrorFrom(409, problem(409), '{"raw":1}');
    expect(err).toBeInstanceOf(ApiError);
    expect(err.message).toBe('HTTP 409 Problem title: what went wrong');
    expect(err.exitCode).toBe(ExitCode.Conflict);
    expect(err.details).toMatchObject({ status: 409, title: 'Problem title', detail: 'what went wrong' });
    expect(err.details.raw).toBe('{"raw":1}');
    expect(hintOf(err)).toBeUndefined();
  });

  it("reads the gateway's envelope: error.code, error.message, retry_after, meta.request_id", () => {
    const err = apiErrorFrom(429, envelope('rate_limited', 'slow down', { retry_after: 7 }));
    expect(err.message).toBe('HTTP 429 rate_limited: slow down (request id req-42)');
    expect(err.details.retryAfter).toBe(7);
    expect(err.details.requestId).toBe('req-42');
    expect(hintOf(err)).toMatch(/^wait and try again/);
    // A wait of zero or less, or one that is not a number, is no wait asked for.
    expect(apiErrorFrom(429, envelope('x', 'y', { retry_after: 0 })).details.retryAfter).toBeUndefined();
    expect(apiErrorFrom(429, envelope('x', 'y', { retry_after: '7' })).details.retryAfter).toBeUndefined();
  });

  it('takes the reason phrase for a title the body does not give, and no empty title or detail', () => {
    const err = apiErrorFrom(404, { type: 'about:blank', title: '', detail: '' });
    expect(err.details.title).toBe('Not Found');
    expect(err.details.detail).toBeUndefined();
    expect(err.message).toBe('HTTP 404 Not Found');
    expect(apiErrorFrom(599, { detail: 'odd' }).details.title).toBeUndefined();
    // A title or detail that is not text is none: the reason phrase stands in.
    const numbers = apiErrorFrom(409, { title: 5, detail: 7, type: 'about:blank' });
    expect(numbers.details).toMatchObject({ title: 'Conflict', detail: undefined });
    expect(numbers.message).toBe('HTTP 409 Conflict');
  });

  it('goes by the page words for an API body under a status that is no refusal (a 3xx, or none)', () => {
    expect(apiErrorFrom(302, problem(302)).message).toBe(
      'HTTP 302 Problem title: a redirect with no Location to follow',
    );
    expect(apiErrorFrom(600, problem(600)).message).toBe('HTTP 600 Problem title: not an HTTP status');
    expect(apiErrorFrom(399, problem(399)).exitCode).toBe(ExitCode.BadResponse);
    expect(apiErrorFrom(400, problem(400)).message).toBe('HTTP 400 Problem title: what went wrong');
    expect(apiErrorFrom(599, problem(599)).message).toBe('HTTP 599 Problem title: what went wrong');
  });

  it('keeps the raw text only where the body was JSON', () => {
    expect(apiErrorFrom(500, problem(500), '{}').details.raw).toBe('{}');
    expect(apiErrorFrom(500, undefined, '<html>').details.raw).toBeUndefined();
    expect(apiErrorFrom(500, undefined, '<html>').details.body).toBeUndefined();
  });

  it('a 401 from a loopback host gets the same hint as any other: what a restarted emulator needs depends on where the key came from, which cmdutil/setting-origin.ts knows', () => {
    const local = { base: new URL('http://127.0.0.1:8787/') };
    expect(hintOf(apiErrorFrom(401, problem(401), undefined, local))).toBe(
      "check the key with 'fcast auth status'; get one with 'fcast register --email ADDRESS'",
    );
    const gateway = withContextHint(apiErrorFrom(401, envelope('unauthorized', 'bad key'), undefined, local), {
      gateway: { command: 'macro', scope: 'macro.read', key: undefined },
    });
    expect(hintOf(gateway)).toMatch(/^the gateway refused the key; /);
    expect(hintOf(gateway)).not.toMatch(/fcast mock|register/);
  });

  it('hints by status: a key to check on 401, a later try on 5xx, the proxy on 407', () => {
    expect(hintOf(apiErrorFrom(401, problem(401)))).toBe(
      "check the key with 'fcast auth status'; get one with 'fcast register --email ADDRESS'",
    );
    expect(hintOf(apiErrorFrom(500, problem(500)))).toBe('the service is having trouble; try again later');
    expect(hintOf(apiErrorFrom(599, problem(599)))).toBe('the service is having trouble; try again later');
    expect(hintOf(apiErrorFrom(408, problem(408)))).toMatch(/^the server gave up waiting/);
    expect(hintOf(apiErrorFrom(407, problem(407), undefined, { proxy: route('sent') }))).toMatch(
      /^the proxy refused the user name and password in HTTPS_PROXY/,
    );
    for (const status of [400, 403, 404, 409, 410, 422])
      expect(hintOf(apiErrorFrom(status, problem(status)))).toBe(undefined);
  });

  it('judges a body the API would write by its fields: ok, error, title, type or detail', () => {
    for (const body of [{ ok: false }, { error: {} }, { title: 't' }, { type: 'about:blank' }, { detail: 'd' }]) {
      // An API body keeps the plain message: no "does not look like the API".
      expect(apiErrorFrom(404, body).message).not.toContain(NOT_THE_API);
    }
    for (const body of [{ ok: 'no' }, { error: 'x' }, { title: 5 }, { message: 'm' }, [], 'text', null]) {
      expect(apiErrorFrom(404, body).message).toContain(NOT_THE_API);
    }
  });
});

describe('apiErrorFrom, a page from something else (nginx, PHP, a proxy) or nothing', () => {
  const page = (status: number, context = {}) => apiErrorFrom(status, undefined, '<html>page</html>', context);

  it('suspects the base URL only where the path is unknown (404, 410)', () => {
    for (const status of [404, 410]) {
      expect(page(status).message).toBe(`HTTP ${status} ${statusText(status)}: ${NOT_THE_API}`);
      expect(hintOf(page(status))).toBe("'fcast doctor' checks the base URL and the key");
    }
  });

  it('tells a 5xx page as the service failing, with a later try, never the base URL', () => {
    for (const status of [500, 505, 520, 599]) {
      const err = page(status);
      expect(err.message).toMatch(/: the service failed$/);
      expect(err.message).not.toContain('base URL');
      expect(hintOf(err)).toBe('the service is having trouble; try again later');
      expect(err.exitCode).toBe(ExitCode.Unavailable);
    }
    // What a front end's page says by its name alone gets only what to do.
    for (const status of [502, 503, 504]) {
      expect(page(status).message).toBe(`HTTP ${status} ${statusText(status)}`);
      expect(hintOf(page(status))).toBe('the service is having trouble; try again later');
    }
    expect(page(501).message).toBe('HTTP 501 Not Implemented: the server does not implement this request');
    expect(hintOf(page(501))).toMatch(/^if the base URL is right, the service is failing/);
  });

  it('says who refused a 4xx page, through a proxy or not', () => {
    expect(page(401).message).toBe(
      "HTTP 401 Unauthorized: the service, or a server in front of it, asks for a login (not the API's own answer)",
    );
    expect(hintOf(page(401))).toBe(
      'fcast sends only its API key; check the base URL, or ask who runs the service what it wants',
    );
    for (const status of [400, 499]) {
      expect(page(status).message).toMatch(/refused the request as sent \(not the API's own answer\)$/);
      expect(page(status).exitCode).toBe(ExitCode.Usage);
    }
    expect(page(403, { proxy: route('none') }).message).toBe(
      "HTTP 403 Forbidden: the service, or the proxy http://proxy.example:3128 in front of it, refused the request (not the API's own answer)",
    );
    expect(hintOf(page(403))).toMatch(/^an access rule in front of the service/);
    for (const status of [413, 414, 431]) {
      expect(page(status).message).toMatch(/refused the request as too large$/);
      expect(hintOf(page(status))).toMatch(/client_max_body_size/);
    }
    expect(page(418).message).toMatch(/refused the request as sent \(not the API's own answer\)$/);
    expect(hintOf(page(418))).toBe("--verbose shows the exchange; 'fcast doctor' checks the base URL and the key");
    expect(page(429).message).toBe('HTTP 429 Too Many Requests');
    expect(hintOf(page(429))).toMatch(/^wait and try again/);
    expect(hintOf(page(408))).toMatch(/^the server gave up waiting/);
  });

  it('says what an answer that is not a final one is', () => {
    expect(page(304).message).toBe('HTTP 304 Not Modified: fcast asked for no cached copy, and got no answer');
    expect(page(302).message).toBe('HTTP 302 Found: a redirect with no Location to follow');
    expect(page(300).message).toMatch(/a redirect with no Location to follow$/);
    expect(page(399).message).toMatch(/a redirect with no Location to follow$/);
    expect(page(101).message).toBe('HTTP 101 Switching Protocols: a switch of protocol fcast did not ask for');
    expect(page(100).message).toBe('HTTP 100 Continue: a provisional answer, and no final one followed');
    expect(page(199).message).toMatch(/a provisional answer, and no final one followed$/);
    expect(page(99).message).toBe('HTTP 99: not an HTTP status');
    expect(page(600).message).toBe('HTTP 600: not an HTTP status');
    expect(hintOf(page(600))).toBe("'fcast doctor' checks the base URL and the key");
  });

  it("words a proxy's 407 by whether credentials were sent, never showing them", () => {
    expect(page(407, { proxy: route('none') }).message).toBe(
      'HTTP 407 Proxy Authentication Required: a proxy wants credentials',
    );
    expect(hintOf(page(407, { proxy: route('none') }))).toBe(
      'no credentials were sent (HTTPS_PROXY carries none): give them in its URL, as http://USER:PASSWORD@HOST:PORT',
    );
    expect(hintOf(page(407, { proxy: route('user-only') }))).toBe(
      'HTTPS_PROXY names a user but no password, so no credentials were sent: give both, as http://USER:PASSWORD@HOST:PORT',
    );
    expect(hintOf(page(407, { proxy: route('sent') }))).toBe(
      'the proxy refused the user name and password in HTTPS_PROXY (not shown here): check them, percent-encoding any of @ : / % in them',
    );
    expect(hintOf(page(407))).toBe(proxyCredentialsHint(undefined));
    expect(proxyCredentialsHint(undefined)).toMatch(/^a proxy between fcast and the service wants credentials/);
  });

  it('tells plain http sent to an https port by its page, and gives the https base URL', () => {
    const url = new URL('http://api.example:8443/fc/api/agent/v1/demo.php');
    const base = new URL('http://api.example:8443/fc/');
    for (const text of [
      'The plain HTTP request was sent to HTTPS port',
      'You are speaking plain HTTP to an SSL-enabled server port',
    ]) {
      const err = apiErrorFrom(400, undefined, `<html>${text}</html>`, { url, base });
      expect(err.message).toBe(
        'HTTP 400 Bad Request: the server at api.example:8443 speaks https, and was sent plain http',
      );
      expect(hintOf(err)).toBe('use https://api.example:8443/fc as the base URL');
    }
    // Where the request went elsewhere than the base URL, the origin it went to.
    const elsewhere = apiErrorFrom(400, undefined, 'plain HTTP request was sent to HTTPS port', {
      url,
      base: new URL('http://other.example/'),
    });
    expect(hintOf(elsewhere)).toBe('use https://api.example:8443 as the base URL');
    // Not that page, another status, or a request that was https already: the ordinary words.
    expect(apiErrorFrom(400, undefined, 'Bad Request', { url, base }).message).not.toContain('speaks https');
    expect(
      apiErrorFrom(403, undefined, 'plain HTTP request was sent to HTTPS port', { url, base }).message,
    ).not.toContain('speaks https');
    const https = new URL('https://api.example:8443/x');
    expect(
      apiErrorFrom(400, undefined, 'plain HTTP request was sent to HTTPS port', { url: https }).message,
    ).not.toContain('speaks https');
    expect(apiErrorFrom(400, undefined, undefined, { url, base }).message).not.toContain('speaks https');
    // Without the URL that answered, or the base URL, it still words the page.
    expect(apiErrorFrom(400, undefined, 'plain HTTP request was sent to HTTPS port').message).toMatch(
      /refused the request as sent/,
    );
    expect(hintOf(apiErrorFrom(400, undefined, 'plain HTTP request was sent to HTTPS port', { url }))).toBe(
      'use https://api.example:8443 as the base URL',
    );
  });
});

describe('withContextHint', () => {
  const gateway = (key?: { kind: 'gateway' | 'rest'; source: string }) => ({
    gateway: { command: 'snapshot', scope: 'market.read', key },
  });

  it("re-tells a gateway 401 and 403 with the key's source and the scope", () => {
    const e401 = withContextHint(
      apiErrorFrom(401, envelope('unauthorized', 'bad key')),
      gateway({ kind: 'gateway', source: 'FCAST_GATEWAY_KEY' }),
    );
    expect(hintOf(e401)).toBe(
      "the gateway refused the gateway key from FCAST_GATEWAY_KEY; set a valid gateway key with FCAST_GATEWAY_KEY or 'fcast auth login --gateway'",
    );
    const e403 = withContextHint(
      apiErrorFrom(403, envelope('forbidden', 'scope')),
      gateway({ kind: 'rest', source: 'the config file' }),
    );
    expect(hintOf(e403)).toBe(
      "'snapshot' needs a key with the scope market.read (the REST key from the config file (no gateway key is set) lacks it, or its plan does not include it); set one with FCAST_GATEWAY_KEY or 'fcast auth login --gateway'",
    );
    expect(hintOf(withContextHint(apiErrorFrom(401, envelope('u', 'm')), gateway()))).toMatch(
      /^the gateway refused the key;/,
    );
    expect(hintOf(withContextHint(apiErrorFrom(400, envelope('bad_args', 'm')), gateway()))).toBe(
      "see 'fcast cmd snapshot --help' for its arguments",
    );
  });

  it('names the symbols list for a 404 about one symbol', () => {
    expect(hintOf(withContextHint(apiErrorFrom(404, problem(404)), { symbol: true }))).toBe(
      "'fcast symbols' lists the symbols your key can use",
    );
  });

  it('leaves alone what it has nothing to add to: no hint for the status, a page, a 407, another error', () => {
    const plain = apiErrorFrom(409, problem(409));
    expect(withContextHint(plain, { symbol: true })).toBe(plain);
    const pageErr = apiErrorFrom(404, undefined, '<html>');
    expect(withContextHint(pageErr, { symbol: true })).toBe(pageErr);
    const proxy = apiErrorFrom(407, problem(407), undefined, { proxy: route('sent') });
    expect(withContextHint(proxy, gateway())).toBe(proxy);
    // A status outside the table's hints (a body of the API's under 600) keeps its own hint.
    const odd = apiErrorFrom(600, problem(600));
    expect(withContextHint(odd, { symbol: true })).toBe(odd);
    const other = new Error('boom');
    expect(withContextHint(other, { symbol: true })).toBe(other);
  });
});

describe('failureUnderSuccess', () => {
  it('is an ok: false envelope under a success status, exit 7, with what it said', () => {
    const err = failureUnderSuccess(200, '{"ok":false}', envelope('internal', 'it broke'));
    expect(err?.exitCode).toBe(ExitCode.BadResponse);
    expect(err?.message).toBe('the gateway answered HTTP 200 with ok: false: internal: it broke (request id req-42)');
    expect(err?.details.raw).toBe('{"ok":false}');
    expect(failureUnderSuccess(200, '{}', { ok: false })?.message).toBe(
      'the gateway answered HTTP 200 with ok: false: OK',
    );
    expect(failureUnderSuccess(299, '{}', { ok: false })?.message).toBe(
      'the gateway answered HTTP 299 with ok: false: error',
    );
  });

  it('is nothing for any other body', () => {
    for (const body of [{ ok: true }, { ok: 'false' }, {}, null, [false], undefined])
      expect(failureUnderSuccess(200, '', body)).toBeUndefined();
  });
});
