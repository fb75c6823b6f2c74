// `fcast __complete-symbols`: the cached symbols, for the completion scripts (hidden).
// Called by the scripts on TAB, so it must answer at once and never complain: stderr is
// discarded there, and a missing or unreadable cache simply offers nothing.
import type { Run } from '../cmdutil/command.js';
import { defineCommand, flag } from '../cmdutil/define.js';
import { COMPLETE_SYMBOLS_COMMAND } from '../completion/names.js';
import { configDir } from '../config/directories.js';

export default defineCommand({
  name: COMPLETE_SYMBOLS_COMMAND,
  hidden: true,
  description: 'print the cached symbols, one per line (used by the completion scripts)',
  flags: {
    refresh: flag('--refresh', 'fetch symbols.php and rewrite the cache (run in the background by the listing)'),
  },
  run: async (run, flags) => {
    if (flags.refresh) return refreshSymbols(run);
    // bin/fcast.js answers a plain TAB itself (tab.ts); this is the same listing.
    const { listSymbols } = await import('../completion/symbols-cache.js');
    listSymbols({
      configDir: configDir(run.ctx),
      env: run.ctx.env,
      nowMs: run.ctx.clock.now(),
      settings: run.settings,
      write: (text) => run.out.data(text),
    });
  },
});

async function refreshSymbols(run: Run): Promise<void> {
  const conn = await run.connect();
  const [{ fetchSymbols, requests }, { writeSymbolsCache }] = await Promise.all([
    import('../api/endpoints.js'),
    import('../completion/symbols-cache.js'),
  ]);
  if (run.flags.dryRun) return void (await run.dryRun(requests.symbols()));
  const res = await fetchSymbols(conn);
  // An off-shape list is not worth caching: the old one stays until a good answer comes.
  if (res.wellFormed)
    writeSymbolsCache(
      configDir(run.ctx),
      res.body.symbols.map((s) => s.symbol),
      run.secrets,
    );
}
