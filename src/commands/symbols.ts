// `fcast symbols`: the symbols the key can use; a well-formed list also feeds the completion cache.
import { isDelimited, RECORD_FORMATS } from '../cmdutil/command.js';
import { defineCommand } from '../cmdutil/define.js';

export default defineCommand({
  name: 'symbols',
  summary: 'the symbols your key can use (needs a key)',
  description:
    'Every symbol the service forecasts for your key: how many timeframes each carries and when its ' +
    "newest forecast was made (UTC, with its age). Use a symbol as shown here with 'fcast predict'.",
  flags: {},
  formats: RECORD_FORMATS,
  examples: [
    ['fcast symbols', 'the table'],
    ['fcast symbols --json | jq -r ".symbols[].symbol"', 'just the names, for scripts'],
  ],
  run: async (run) => {
    const conn = await run.connect();
    const [{ fetchSymbols, requests }, { withSpinner }] = await Promise.all([
      import('../api/endpoints.js'),
      import('../output/spinner.js'),
    ]);
    if (run.flags.dryRun) return run.dryRun(requests.symbols());
    const res = await withSpinner(run.out, { json: run.flags.json, label: 'fetching symbols' }, fetchSymbols(conn));
    if (res.wellFormed) {
      // Feeds TAB after 'fcast predict', which must never wait for the network.
      const { writeSymbolsCache } = await import('../completion/symbols-cache.js');
      writeSymbolsCache(
        run.settings().configDir,
        res.body.symbols.map((s) => s.symbol),
        run.secrets,
      );
    }
    if (run.flags.json) return run.out.rawJson(res.raw);
    if (isDelimited(run.format)) {
      const { symbolsTable, renderRecords } = await import('../output/formats/tables.js');
      return run.out.data(renderRecords(run.format, symbolsTable(res.raw)));
    }
    const [{ renderSymbols }, { renderChecked }] = await Promise.all([
      import('../output/symbols-table.js'),
      import('../output/document.js'),
    ]);
    const now = run.nowSeconds();
    run.out.data(renderChecked(run.out, res, now, (body) => renderSymbols(run.out, body, now)));
  },
});
