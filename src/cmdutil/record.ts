// The one call `--record` (or the `record` setting) adds to a command that showed forecasts:
// demo, predict, and every refresh of a watch, each time after what it showed is written.
// Recording never changes stdout, never delays it (the journal's lock may keep a recorder
// waiting) and never fails the command: a journal that cannot be written is one warning on stderr.
import type { Fetched } from '../api/endpoints.js';
import type { ForecastEnvelope } from '../schema/bodies.js';
import { dataDir } from '../config/directories.js';
import type { Run } from './command.js';
import { flag } from './define.js';
import type { FiredAlert } from '../watch/source.js';

export const RECORD_FLAG = flag(
  '--record',
  'record the forecasts shown in the journal (see fcast journal --help; env FCAST_RECORD)',
);

/** Runs that have warned already: a watch that cannot write its journal says so once, not each refresh. */
const warned = new WeakSet<Run>();

/**
 * Records the responses shown when asked to (the flag, else the setting): the forecasts of the
 * timeframes shown (`tfs`, those of --tf; all without it), of well-formed bodies only.
 */
export async function recordIfAsked(
  run: Run,
  flag: boolean | undefined,
  shown: ReadonlyArray<{ symbol: string; fetched: Fetched<ForecastEnvelope> }>,
  tfs: readonly string[] | undefined,
  alerts: readonly FiredAlert[] = [],
): Promise<void> {
  try {
    if (flag !== true && !run.settings().record.value) return;
    // A body off the documented shape was warned about already; its fields cannot be trusted to record.
    const bodies = shown.filter((s) => s.fetched.wellFormed).map((s) => ({ symbol: s.symbol, body: s.fetched.body }));
    if (bodies.length === 0) return;
    const [{ recordShown }, { originOf }] = await Promise.all([
      import('../journal/hook.js'),
      import('../journal/record.js'),
    ]);
    // The service the responses came from: every record names it (a response came, so one is set).
    const origin = originOf(run.settings().baseUrl?.value ?? '');
    if (origin === undefined) throw new Error("no base URL to name the records' origin");
    // The alerts that fired on these responses, noted beside the forecasts they fired on.
    const notes = alerts.map((a) => ({ ...a, t: Math.floor(a.at / 1000) }));
    const done = await recordShown(dataDir(run.ctx), origin, bodies, run.nowSeconds(), tfs, notes);
    run.out.debug(
      `journal: recorded ${done.forecasts} forecast(s) and ${done.prices} price(s); settled ${done.settled}; noted ${done.alerts} alert(s); waited ${done.waitedMs} ms for the lock`,
    );
  } catch (err) {
    if (warned.has(run)) return;
    warned.add(run);
    run.out.warn(`journal: not recorded: ${(err as Error).message.replace(/^journal: /, '')}`);
  }
}
