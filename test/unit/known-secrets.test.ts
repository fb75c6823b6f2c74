// The launcher answers the root's help without loading the bundle, and so without the
// redactor: it writes dist/split/help.txt only when no secret the environment gives may show in
// it (config/env-secrets.ts's secrets, core/secret-spellings.ts's mayShowSecret). This holds
// both to the redactor: the same secrets as it is given, and no text it would mask let through.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { environmentSecrets, KEY_VARIABLES, PROXY_VARIABLES } from '../../src/config/env-secrets.js';
import { knownSecrets } from '../../src/config/known-secrets.js';
import { SETTINGS } from '../../src/config/settings.js';
import { Redactor } from '../../src/core/redact.js';
import { mayShowSecret, spellings } from '../../src/core/secret-spellings.js';
import { tempDir } from '../helpers/cli.js';

const noConfig = () => ({ platform: process.platform, homedir: tempDir(), env: { FCAST_CONFIG_DIR: tempDir() } });

describe("the help fast path's secrets", () => {
  it('are those the redactor is given from the environment', () => {
    const env = {
      FCAST_CONFIG_DIR: tempDir(),
      [KEY_VARIABLES.apiKey]: ' mfa_ag_0123456789abcdef0123 ',
      [KEY_VARIABLES.gatewayKey]: 'gw/Ke+y=S3cr3t%Tok&n-Zq8',
      ...Object.fromEntries(PROXY_VARIABLES.map((name, i) => [name, `http://u${i}:p%40ss${i}word@proxy:8080`])),
    };
    const ctx = { ...noConfig(), env };
    expect(environmentSecrets(env)).toEqual(knownSecrets(ctx));
    expect(environmentSecrets(env)).toContain('mfa_ag_0123456789abcdef0123');
    for (const [i] of PROXY_VARIABLES.entries()) expect(environmentSecrets(env)).toContain(`p@ss${i}word`);
    expect(SETTINGS.apiKey.env).toBe(KEY_VARIABLES.apiKey);
    expect(SETTINGS.gatewayKey.env).toBe(KEY_VARIABLES.gatewayKey);
  });

  it('are none for an environment without keys or proxy passwords, or with a proxy that is no URL', () => {
    expect(environmentSecrets({ HTTPS_PROXY: 'http://proxy:8080', FCAST_API_KEY: '  ' })).toEqual([]);
    expect(environmentSecrets({ https_proxy: 'http://[::1' })).toEqual([]);
  });
});

describe('mayShowSecret', () => {
  const HELP = 'Usage: fcast [options] [command]\n\nProbabilistic market forecasts, their public track record\n';

  it('finds a secret, any 12 characters of it in any case, and its spellings', () => {
    const secret = 'S3cr3t/Tok+n=Zq8x';
    expect(mayShowSecret(HELP.toLowerCase(), secret)).toBe(false);
    expect(mayShowSecret(`a ${secret} b`.toLowerCase(), secret)).toBe(true);
    expect(mayShowSecret(`a ${secret.slice(2, 14).toUpperCase()} b`.toLowerCase(), secret)).toBe(true);
    for (const form of spellings(secret)) expect(mayShowSecret(`x${form}y`.toLowerCase(), secret), form).toBe(true);
    // Words of the help as a secret: then the fast path must decline.
    expect(mayShowSecret(HELP.toLowerCase(), 'market forecasts')).toBe(true);
  });

  it('is true for every text the redactor would change, given that secret alone', () => {
    const word = fc.stringMatching(/^[a-zA-Z0-9 %+/=_-]{0,30}$/);
    fc.assert(
      fc.property(fc.stringMatching(/^[a-zA-Z0-9/+=%-]{8,24}$/), word, word, fc.nat(), (secret, before, after, at) => {
        const piece = secret.slice(at % secret.length, (at % secret.length) + 12 + (at % 3));
        for (const text of [before + secret + after, before + piece + after, before + after]) {
          // Key-shaped text is masked whatever the secrets: the help never holds it (the build redacts it).
          const plain = new Redactor(() => []).redact(text);
          if (plain !== text) continue;
          if (new Redactor(() => [secret]).redact(text) !== text)
            expect(mayShowSecret(text.toLowerCase(), secret)).toBe(true);
        }
      }),
      { numRuns: 300, seed: 41 },
    );
  });
});
