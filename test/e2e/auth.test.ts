import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { maskKey } from '../../src/config/keys.js';
import { tempDir } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';

const emu = useEmulator();

const REST_KEY = `mfa_ag_${'0123456789abcdef'.repeat(2)}01234567`;
const OTHER_KEY = `mfa_ag_${'fedcba9876543210'.repeat(2)}76543210`;
const configPath = (dir: string) => join(dir, 'config.json');
const config = (dir: string): Record<string, unknown> => JSON.parse(readFileSync(configPath(dir), 'utf8'));
const withConfig = (data: Record<string, unknown>): string => {
  const dir = tempDir();
  writeFileSync(configPath(dir), JSON.stringify(data));
  return dir;
};
const mode = (path: string) => statSync(path).mode & 0o777;

describe('fcast auth login', () => {
  it('stores a REST key piped on stdin (0600 in a 0700 dir) and shows it only masked', async () => {
    const r = await emu.run(['auth', 'login'], { stdin: `${REST_KEY}\n` });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`saved the API key ${maskKey(REST_KEY)} to ${configPath(r.configDir)}`);
    expect(r.stderr).not.toContain(REST_KEY);
    expect(config(r.configDir)['api-key']).toBe(REST_KEY);
    expect(mode(configPath(r.configDir))).toBe(0o600);
    expect(mode(r.configDir)).toBe(0o700);
    expect(emu.server.requests).toHaveLength(0);
  });

  it('reads the key at a hidden prompt on a terminal, the prompt on stderr', async () => {
    const r = await emu.run(['auth', 'login'], { stdin: `${REST_KEY}\r`, tty: true });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^Paste your API key \(input hidden\), then press Enter: \n/);
    expect(r.stdout + r.stderr).not.toContain(REST_KEY);
    expect(config(r.configDir)['api-key']).toBe(REST_KEY);
  });

  it('refuses a malformed REST key with exit 2, without echoing it, and saves nothing', async () => {
    for (const typed of [
      REST_KEY.toUpperCase(),
      `${REST_KEY}0`,
      'hunter2-my-secret-password',
      `${REST_KEY} ${REST_KEY}`,
    ]) {
      const r = await emu.run(['auth', 'login'], { stdin: typed });
      expect(r.code, typed).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^fcast: that is not a valid API key .*<prefix>_ag_ followed by 40 lowercase hex/);
      expect(r.stderr).not.toContain(typed);
      expect(r.stderr).not.toContain(typed.slice(8, 20));
      expect(existsSync(configPath(r.configDir))).toBe(false);
    }
  });

  it('refuses a gateway-shaped key as the REST key (exit 2, pointing to --gateway), and saves nothing', async () => {
    const r = await emu.run(['auth', 'login'], { stdin: `${emu.server.limitedGatewayKey}\n` });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'fcast: that is a gateway key (mfgw_..., not shown), not the REST API key\n' +
        "  hint: store it with 'fcast auth login --gateway'; the REST endpoints refuse a gateway key\n",
    );
    expect(existsSync(configPath(r.configDir))).toBe(false);
  });

  it("hints 'a gateway key?' only for a key that may be one", async () => {
    const hint = "  hint: a gateway key? use 'fcast auth login --gateway'\n";
    const maybe = await emu.run(['auth', 'login'], { stdin: 'gw_live_0123456789abcdef' });
    expect(maybe.code).toBe(2);
    expect(maybe.stderr).toBe(
      'fcast: that is not a valid API key (it has 24 characters; not shown): expected <prefix>_ag_ followed by 40 lowercase hex characters\n' +
        hint,
    );
    for (const typed of [`${REST_KEY}0`, `${REST_KEY} ${REST_KEY}`, 'mfa_ag_0123']) {
      const r = await emu.run(['auth', 'login'], { stdin: typed });
      expect(r.code, typed).toBe(2);
      expect(r.stderr, typed).toMatch(
        /^fcast: that is not a valid API key .*\n {2}hint: see 'fcast auth login --help'\n$/,
      );
    }
  });

  it('exits 2 on empty stdin', async () => {
    const r = await emu.run(['auth', 'login'], { stdin: '\n' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no API key given: stdin was empty/);
  });

  it('--gateway stores any printable token as the gateway key, apart from the REST key', async () => {
    const dir = withConfig({ 'api-key': REST_KEY });
    const r = await emu.run(['auth', 'login', '--gateway'], { stdin: emu.server.limitedGatewayKey, configDir: dir });
    expect(r.code).toBe(0);
    expect(config(dir)).toEqual({ 'api-key': REST_KEY, 'gateway-key': emu.server.limitedGatewayKey });
    expect(r.stderr).not.toContain(emu.server.limitedGatewayKey);
    const bad = await emu.run(['auth', 'login', '--gateway'], { stdin: 'two words' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).not.toContain('two words');
  });

  it('warns when the environment overrides the key it saved', async () => {
    const r = await emu.run(['auth', 'login'], { stdin: REST_KEY, env: { FCAST_API_KEY: OTHER_KEY } });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/FCAST_API_KEY is set in the environment and takes precedence/);
    expect(r.stderr).not.toContain(OTHER_KEY);
  });

  it('without a terminal, replaces a stored key only with --force (else exit 2, the old key kept)', async () => {
    const dir = withConfig({ 'api-key': REST_KEY, timeout: 5 });
    const refused = await emu.run(['auth', 'login'], { stdin: OTHER_KEY, configDir: dir });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/already stored in .*pass --force to replace it/);
    expect(refused.stderr).toContain(maskKey(REST_KEY));
    expect(refused.stderr).not.toContain(REST_KEY.slice(7, 19));
    expect(refused.stderr).not.toContain(OTHER_KEY.slice(7, 19));
    expect(config(dir)).toEqual({ 'api-key': REST_KEY, timeout: 5 });

    const same = await emu.run(['auth', 'login'], { stdin: REST_KEY, configDir: dir });
    expect(same.code).toBe(0);

    const forced = await emu.run(['auth', 'login', '--force'], { stdin: OTHER_KEY, configDir: dir });
    expect(forced.code).toBe(0);
    expect(forced.stderr).toContain(`it replaces the API key ${maskKey(REST_KEY)}`);
    expect(config(dir)).toEqual({ 'api-key': OTHER_KEY, timeout: 5 });
  });

  it('on a terminal, asks before replacing a stored key; only yes replaces it', async () => {
    const dir = withConfig({ 'api-key': REST_KEY });
    const no = await emu.run(['auth', 'login'], { stdin: [`${OTHER_KEY}\r`, 'n\n'], tty: true, configDir: dir });
    expect(no.code).toBe(0);
    expect(no.stderr).toMatch(/Replace the API key mfa_ag_0123\.\.\.4567 stored in .*\? .*\[y\/N\]/);
    expect(no.stderr).toMatch(/kept the API key/);
    expect(config(dir)['api-key']).toBe(REST_KEY);

    const yes = await emu.run(['auth', 'login'], { stdin: [`${OTHER_KEY}\r`, 'y\n'], tty: true, configDir: dir });
    expect(yes.code).toBe(0);
    expect(config(dir)['api-key']).toBe(OTHER_KEY);
    expect(yes.stdout + yes.stderr).not.toContain(OTHER_KEY.slice(7, 19));
  });
});

describe('fcast auth status', () => {
  it('shows where each key comes from, masked, and the base URL', async () => {
    const dir = withConfig({ 'gateway-key': emu.server.limitedGatewayKey });
    const r = await emu.run(['auth', 'status'], { configDir: dir, env: { FCAST_API_KEY: REST_KEY } });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      new RegExp(`^API key\\s+${maskKey(REST_KEY).replace(/\./g, '\\.')}\\s+from FCAST_API_KEY$`, 'm'),
    );
    expect(r.stdout).toMatch(
      new RegExp(
        `^Gateway key\\s+${maskKey(emu.server.limitedGatewayKey).replace(/\./g, '\\.')}\\s+from ${configPath(dir)}$`,
        'm',
      ),
    );
    expect(r.stdout).toMatch(new RegExp(`^Base URL\\s+${emu.server.url}\\s+from FCAST_BASE_URL$`, 'm'));
    expect(r.stdout + r.stderr).not.toContain(REST_KEY);
    expect(r.stdout + r.stderr).not.toContain(emu.server.limitedGatewayKey);
    expect(emu.server.requests).toHaveLength(0);
  });

  it('--json gives an object with masked keys only; the gateway falls back to the REST key', async () => {
    const dir = withConfig({ 'api-key': REST_KEY });
    const r = await emu.run(['auth', 'status', '--json'], { configDir: dir });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      api_key: { key: maskKey(REST_KEY), source: configPath(dir), well_formed: true },
      gateway_key: { key: maskKey(REST_KEY), source: configPath(dir), well_formed: true, from_api_key: true },
      base_url: { value: emu.server.url, source: 'FCAST_BASE_URL' },
      config_file: configPath(dir),
    });
    expect(r.stdout).not.toContain(REST_KEY);
  });

  it('says when nothing is set', async () => {
    const r = await emu.run(['auth', 'status'], { env: { FCAST_BASE_URL: '' } });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^API key\s+not set$/m);
    expect(r.stdout).toMatch(/^Gateway key\s+not set$/m);
    expect(r.stdout).toMatch(/^Base URL\s+not set$/m);
  });

  it('--check proves the key works by calling symbols.php', async () => {
    const r = await emu.runWithKey(['auth', 'status', '--check']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Check\s+the API key works: symbols\.php answered 200 with 8 symbols, tier free$/m);
    expect(emu.server.requests.map((q) => q.path)).toEqual(['/api/agent/v1/symbols.php']);
    expect(emu.server.requests[0]!.headers.authorization).toBe(`Bearer ${emu.server.testKey}`);
  });

  it('--check with a key the service does not know exits 3, --json still one document', async () => {
    const r = await emu.run(['auth', 'status', '--check'], { env: { FCAST_API_KEY: REST_KEY } });
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/^Check\s+failed/m);
    expect(r.stderr).toMatch(/^fcast: HTTP 401 Unauthorized/);
    const json = await emu.run(['auth', 'status', '--check', '--json'], { env: { FCAST_API_KEY: REST_KEY } });
    expect(json.code).toBe(3);
    expect(JSON.parse(json.stdout).check).toMatchObject({ ok: false, exit_code: 3 });
    expect(json.stdout + json.stderr + r.stdout + r.stderr).not.toContain(REST_KEY);
  });

  it('--check without a key exits 3 and sends nothing', async () => {
    const r = await emu.run(['auth', 'status', '--check']);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/no API key/);
    expect(emu.server.requests).toHaveLength(0);
  });

  it('--verbose --check never logs the key', async () => {
    const r = await emu.runWithKey(['auth', 'status', '--check', '--verbose']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Authorization: Bearer <redacted>');
    expect(r.stdout + r.stderr).not.toContain(emu.server.testKey);
  });
});

describe('fcast auth logout', () => {
  it('without a terminal needs --yes: exit 2, the key kept', async () => {
    const dir = withConfig({ 'api-key': REST_KEY });
    const r = await emu.run(['auth', 'logout'], { configDir: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--yes/);
    expect(r.stderr).toMatch(/cannot be recovered/);
    expect(config(dir)['api-key']).toBe(REST_KEY);
  });

  it('--yes removes the stored REST key and leaves the gateway key', async () => {
    const dir = withConfig({ 'api-key': REST_KEY, 'gateway-key': emu.server.limitedGatewayKey, timeout: 5 });
    const r = await emu.run(['auth', 'logout', '--yes'], { configDir: dir });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`removed the API key ${maskKey(REST_KEY)}`);
    expect(config(dir)).toEqual({ 'gateway-key': emu.server.limitedGatewayKey, timeout: 5 });
    expect(mode(configPath(dir))).toBe(0o600);
    const gateway = await emu.run(['auth', 'logout', '--gateway', '--yes'], { configDir: dir });
    expect(gateway.code).toBe(0);
    expect(config(dir)).toEqual({ timeout: 5 });
  });

  it('asks first on a terminal: yes removes, anything else keeps', async () => {
    const kept = withConfig({ 'api-key': REST_KEY });
    const no = await emu.run(['auth', 'logout'], { configDir: kept, tty: true, stdin: 'n\n' });
    expect(no.code).toBe(0);
    expect(no.stderr).toMatch(/Remove the API key .* It cannot be recovered.*\[y\/N\]/);
    expect(no.stderr).toMatch(/nothing was removed/);
    expect(config(kept)['api-key']).toBe(REST_KEY);

    const removed = withConfig({ 'api-key': REST_KEY });
    const yes = await emu.run(['auth', 'logout'], { configDir: removed, tty: true, stdin: 'y\n' });
    expect(yes.code).toBe(0);
    expect(config(removed)['api-key']).toBeUndefined();
  });

  it('says that a key from the environment cannot be unset by logout', async () => {
    const r = await emu.run(['auth', 'logout', '--yes'], { env: { FCAST_API_KEY: REST_KEY } });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/FCAST_API_KEY is set in the environment; logout cannot unset it/);
    expect(r.stderr).toMatch(/nothing to remove/);
    expect(r.stderr).not.toContain(REST_KEY);
  });
});
