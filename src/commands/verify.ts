// `fcast verify <id>`: one expired forecast, its closes and settlement, and the check that the outcome follows.
import { isDelimited, RECORD_FORMATS } from '../cmdutil/command.js';
import { defineCommand } from '../cmdutil/define.js';
import { parseWholeNumber } from '../cmdutil/input.js';

export default defineCommand({
  name: 'verify',
  summary: 'one expired forecast and how it settled (no key)',
  description:
    'Inspect one expired forecast: the stored forecast, the market closes up to its target time and the canonical settlement, then a check that the published outcome follows from the direction, the anchor price and the close at the target time. A forecast that has not expired yet is refused by the service (HTTP 403, exit 3).',
  args: [{ name: '<id>', help: 'the forecast id: a whole number >= 1' }],
  flags: {},
  formats: RECORD_FORMATS,
  examples: [
    ['fcast verify 1', 'forecast, closes, settlement and the check'],
    ['fcast verify 1 --json | jq .settlement.outcome', 'the body, for scripts'],
  ],
  run: async (run, _flags, rawId: string) => {
    const id = parseWholeNumber(rawId, 'the forecast id', 1);
    const conn = await run.connect();
    const { fetchVerify, requests } = await import('../api/endpoints.js');
    if (run.flags.dryRun) return run.dryRun(requests.verify(id));
    const res = await fetchVerify(conn, id);
    if (run.flags.json) return run.out.rawJson(res.raw);
    if (isDelimited(run.format)) {
      const { verifyTable, renderRecords } = await import('../output/formats/tables.js');
      return run.out.data(renderRecords(run.format, verifyTable(res.raw)));
    }
    const [{ checkSettlement }, { renderVerification }, { renderChecked }] = await Promise.all([
      import('../evidence/settlement.js'),
      import('../output/verify-view.js'),
      import('../output/document.js'),
    ]);
    const now = run.nowSeconds();
    run.out.data(
      renderChecked(run.out, res, now, (body) => renderVerification(run.out, body, checkSettlement(body), id, now)),
    );
  },
});
