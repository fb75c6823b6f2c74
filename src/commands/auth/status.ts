// `fcast auth status`: the keys in use, where they come from, and the base URL; --check proves the REST key.
import type { Run } from '../../cmdutil/command.js';
import { defineCommand, flag } from '../../cmdutil/define.js';
import { FcastError } from '../../core/errors.js';
import { maskKey, REST_KEY_KIND, type KeyKind } from '../../config/keys.js';
import { inspectKey } from '../../config/key-checks.js';
import type { Sourced } from '../../config/origin.js';

export default defineCommand({
  name: 'status',
  summary: 'show the keys in use, where they come from, and the base URL',
  description:
    'For the REST key and the gateway key: where each comes from (an environment variable or the config ' +
    'file) and a masked form; and the base URL. --check calls symbols.php to prove the REST key works ' +
    '(401 exits 3).',
  flags: {
    check: flag('--check', 'call the service to prove that the REST key works'),
  },
  examples: [
    ['fcast auth status', 'keys (masked), their sources and the base URL'],
    ['fcast auth status --check', 'also ask the service whether the REST key works'],
    ['fcast auth status --json | jq .api_key.source', 'for scripts'],
  ],
  run: (run, flags) => status(run, flags.check === true),
});

interface KeyReport {
  key: string;
  source: string;
  well_formed: boolean;
  /** The gateway falls back to the REST key when it has none of its own. */
  from_api_key?: boolean;
}

async function status(run: Run, check: boolean): Promise<void> {
  const s = run.settings();
  const report = (got: Sourced<string>, kind: KeyKind): KeyReport => ({
    key: maskKey(got.value),
    source: got.source,
    well_formed: kind.isWellFormed(got.value),
  });
  const apiKey = s.apiKey ? report(s.apiKey, REST_KEY_KIND) : null;
  const gateway = inspectKey(s, 'gateway');
  const gatewayKey = gateway.key
    ? { ...report(gateway.key, gateway.key.spec), ...(gateway.fallback ? { from_api_key: true } : {}) }
    : null;

  let checked: Record<string, unknown> | undefined;
  let failure: FcastError | undefined;
  if (check) {
    const conn = await run.connect();
    const { fetchSymbols, requests } = await import('../../api/endpoints.js');
    // The dry run prints the request it would send; that is the whole answer.
    if (run.flags.dryRun) return void (await run.dryRun(requests.symbols()));
    try {
      const res = await fetchSymbols(conn);
      const meta = res.body.meta as Record<string, unknown> | undefined;
      checked = { ok: true, status: res.response.status, symbols: res.body.count, tier: meta?.tier ?? null };
    } catch (err) {
      if (!(err instanceof FcastError)) throw err;
      failure = err;
      checked = { ok: false, exit_code: err.exitCode, error: err.message };
    }
  }

  if (run.flags.json) {
    run.out.json({
      api_key: apiKey,
      gateway_key: gatewayKey,
      base_url: s.baseUrl ? { value: s.baseUrl.value, source: s.baseUrl.source } : null,
      config_file: s.configPath,
      ...(checked ? { check: checked } : {}),
    });
    // stdout already holds the status document: thrown without the server's body, none is added.
    if (failure) throw new FcastError(failure.message, failure.exitCode, { hint: failure.hint, cause: failure });
    return;
  }

  const describe = (k: KeyReport | null, label: string): string => {
    if (!k) return 'not set';
    const origin = k.from_api_key ? `none of its own: uses the API key (from ${k.source})` : `from ${k.source}`;
    return `${k.key}  ${origin}${k.well_formed ? '' : `  (malformed: not a valid ${label})`}`;
  };
  const pairs: Array<[string, string]> = [
    ['API key', describe(apiKey, 'API key')],
    ['Gateway key', describe(gatewayKey, gatewayKey?.from_api_key ? 'API key' : 'gateway key')],
    ['Base URL', s.baseUrl ? `${s.baseUrl.value}  from ${s.baseUrl.source}` : 'not set'],
    ['Config file', s.configPath],
  ];
  if (checked?.ok) {
    const tier = typeof checked.tier === 'string' ? `, tier ${checked.tier}` : '';
    pairs.push([
      'Check',
      `the API key works: symbols.php answered ${String(checked.status)} with ${String(checked.symbols)} symbols${tier}`,
    ]);
  } else if (failure) {
    pairs.push(['Check', 'failed (see below)']);
  }
  const { renderPairs } = await import('../../output/table.js');
  run.out.data(renderPairs(run.out, pairs));
  if (failure) throw failure;
}
