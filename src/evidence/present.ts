// What `track-record` and `accuracy` do with a fetched track record: print it in the form
// asked for, then run the gates and the audit (which may end the command with exit 8).
import type { Fetched } from '../api/endpoints.js';
import type { TrackRecord } from '../api/schemas.js';
import type { Run } from '../command.js';
import { renderChecked } from '../output/document.js';
import { renderTrackRecordMarkdown, renderTrackRecordTable } from '../output/track-record-table.js';
import { enforceChecks } from './checks.js';
import type { EvidenceFlags } from './flags.js';

export function presentTrackRecord(run: Run, res: Fetched<TrackRecord>, flags: EvidenceFlags): void {
  const { out } = run;
  if (run.flags.json) {
    // --json is the stronger promise (stdout is exactly the body), so it wins over --format.
    if (flags.format === 'markdown') out.note('note: --json prints the body as sent; --format markdown is ignored');
    out.rawJson(res.raw);
  } else {
    const render = flags.format === 'markdown' ? renderTrackRecordMarkdown : renderTrackRecordTable;
    out.data(renderChecked(out, res, run.nowSeconds(), (body) => render(out, body)));
  }
  enforceChecks(out, res.body, flags, { strict: run.flags.strict === true });
}
