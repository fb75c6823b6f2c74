// `fcast api`'s request as a value: where PATH leads (only the base's origin), which key it
// gets, where fields go, and which methods are retried.
import { describe, expect, it } from 'vitest';
import { authOf, rawRequest, targetOf } from '../../src/api/raw-request.js';
import { UsageError } from '../../src/core/errors.js';

const BASE = new URL('https://svc.example/sub/');

describe('targetOf', () => {
  it('takes a path relative to the base, with or without its slash, and a URL of its origin', () => {
    expect(targetOf('api/agent/v1/symbols.php', BASE).href).toBe('https://svc.example/sub/api/agent/v1/symbols.php');
    expect(targetOf('/api/agent/v1/symbols.php?x=1', BASE).href).toBe(
      'https://svc.example/sub/api/agent/v1/symbols.php?x=1',
    );
    expect(targetOf('https://svc.example/other#frag', BASE).href).toBe('https://svc.example/other');
  });
  it.each([
    'https://evil.example/sub/api/agent/v1/symbols.php',
    'http://svc.example/sub/',
    'https://svc.example:444/sub/',
    '//evil.example/x',
    '\\\\evil.example/x',
    '/\\evil.example/x',
    'https://user:pw@svc.example/sub/',
    'javascript:alert(1)',
    'file:///etc/passwd',
    '',
  ])('refuses %j (exit 2)', (path) => {
    expect(() => targetOf(path, BASE)).toThrow(UsageError);
  });
});

describe('authOf and rawRequest', () => {
  it('the REST key on REST paths, the gateway key on its path, none elsewhere', () => {
    const at = (p: string) => authOf(targetOf(p, BASE), BASE);
    expect(at('api/agent/v1/symbols.php')).toBe('rest');
    expect(at('api/agent/v1')).toBe('rest');
    expect(at('api/v1/agent/command')).toBe('gateway');
    expect(at('api/v1/agent/command/')).toBe('gateway');
    expect(at('api/agent/v1/../../v1/agent/command')).toBe('gateway');
    expect(at('api/agent/v10/x')).toBe('none');
    expect(at('__mock/clock')).toBe('none');
    expect(authOf(new URL('https://svc.example/api/agent/v1/x'), BASE)).toBe('none');
  });
  it('fields: the query of a GET (repeatable), JSON body fields otherwise, the query beside --input', () => {
    const get = rawRequest(
      {
        path: 'p',
        fields: [
          { name: 'a', value: '1' },
          { name: 'a', value: '2' },
        ],
      },
      BASE,
    );
    expect(get).toMatchObject({ method: 'GET', path: 'https://svc.example/sub/p?a=1&a=2', retry: 'idempotent' });
    const post = rawRequest({ path: 'p', method: 'POST', fields: [{ name: 'n', value: 3 }] }, BASE);
    expect(post).toMatchObject({ method: 'POST', body: { n: 3 }, retry: 'never' });
    const input = rawRequest({ path: 'p', input: '{}', fields: [{ name: 'q', value: true }] }, BASE);
    expect(input).toMatchObject({ method: 'POST', rawBody: '{}', path: 'https://svc.example/sub/p?q=true' });
    expect(() => rawRequest({ path: 'p', method: 'GET', input: '{}', fields: [] }, BASE)).toThrow(UsageError);
    expect(() => rawRequest({ path: 'api/agent/v1/register.php', method: 'POST', fields: [] }, BASE)).toThrow(
      /refusing to register/,
    );
  });
});
