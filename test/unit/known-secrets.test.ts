// bin/fcast.js answers the root's help without loading the bundle, so it cannot call
// config/known-secrets.ts and lists the proxy variables (and the key variables) again in
// mayShowSecret. This holds that copy to the module the redactor is given its secrets by.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PROXY_VARIABLES } from '../../src/config/known-secrets.js';
import { SETTINGS } from '../../src/config/settings.js';

const bin = readFileSync(new URL('../../bin/fcast.js', import.meta.url), 'utf8');
const mayShowSecret = bin.slice(
  bin.indexOf('function mayShowSecret'),
  bin.indexOf('\n}\n', bin.indexOf('function mayShowSecret')),
);

describe("bin's help fast path knows the secrets the redactor knows", () => {
  it('names every proxy variable and both key variables', () => {
    expect(mayShowSecret).toContain('function mayShowSecret');
    const proxies = /for \(const name of (\[[^\]]*\])\)/.exec(mayShowSecret)?.[1];
    expect(proxies && JSON.parse(proxies.replaceAll("'", '"'))).toEqual([...PROXY_VARIABLES]);
    for (const key of ['apiKey', 'gatewayKey'] as const) expect(mayShowSecret).toContain(`env.${SETTINGS[key].env}`);
  });
});
