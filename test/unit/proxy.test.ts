import { describe, expect, it } from 'vitest';
import { proxyFor, proxyFromEnv } from '../../src/api/transport.js';

describe('proxy choice', () => {
  const proxies = {
    httpProxy: 'http://u:p@proxy.example:3128',
    httpsProxy: 'http://tls-proxy.example:8080',
    noProxy: 'localhost, .internal.example,api.example:8443',
  };

  it('picks HTTPS_PROXY for https, HTTP_PROXY for http, without credentials', () => {
    expect(proxyFor(proxies, new URL('https://forecasts.example/'))).toBe('http://tls-proxy.example:8080');
    expect(proxyFor(proxies, new URL('http://forecasts.example/'))).toBe('http://proxy.example:3128');
    expect(proxyFor({ httpProxy: 'http://p.example:1' }, new URL('https://x.example/'))).toBe('http://p.example:1');
  });

  it('honours NO_PROXY hosts, domains and ports', () => {
    expect(proxyFor(proxies, new URL('http://localhost:8787/'))).toBeUndefined();
    expect(proxyFor(proxies, new URL('https://svc.internal.example/'))).toBeUndefined();
    expect(proxyFor(proxies, new URL('https://api.example:8443/'))).toBeUndefined();
    expect(proxyFor(proxies, new URL('https://api.example/'))).toBe('http://tls-proxy.example:8080');
    expect(proxyFor({ httpProxy: 'http://p:1', noProxy: '*' }, new URL('http://any.example/'))).toBeUndefined();
  });

  it('reads the lower-case spelling first, and treats empty as unset', () => {
    expect(proxyFromEnv({ http_proxy: 'http://a:1', HTTP_PROXY: 'http://b:2', HTTPS_PROXY: '' })).toEqual({
      httpProxy: 'http://a:1',
      httpsProxy: undefined,
      noProxy: undefined,
      httpVariable: 'http_proxy',
      httpsVariable: undefined,
    });
  });
});
