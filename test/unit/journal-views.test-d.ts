// The journal's renderers take the journal's own types (output/ may name them with `import type`):
// a field added to a report, a row or a summary reaches its view without a copy to keep in step.
// Checked by the type checker, not at run time: `npm test` runs `tsc -b test` first (as does
// `npm run typecheck`), which fails on a mismatch. It is a `.test-d.ts` file, vitest's name for a
// type test, so that vitest does not run it as a test that asserts nothing.
import { describe, expectTypeOf, it } from 'vitest';
import type { ImportSummary } from '../../src/journal/import.js';
import type { PruneSummary } from '../../src/journal/prune.js';
import type { JournalReport } from '../../src/journal/report.js';
import type { JournalRow } from '../../src/journal/rows.js';
import type { CallBin } from '../../src/journal/score.js';
import type { SettleSummary } from '../../src/journal/settling.js';
import type { JournalReportView } from '../../src/output/journal-report.js';
import type {
  renderImportSummary,
  renderJournalRows,
  renderPruneSummary,
  renderSettleSummary,
} from '../../src/output/journal-views.js';
import type { renderReliabilityChart } from '../../src/output/reliability-chart.js';

describe('the journal’s views', () => {
  it('take the report, rows and summaries as journal/ types them', () => {
    expectTypeOf<JournalReportView['report']>().toEqualTypeOf<JournalReport>();
    expectTypeOf<Parameters<typeof renderReliabilityChart>[1]>().toEqualTypeOf<readonly CallBin[]>();
    expectTypeOf<Parameters<typeof renderJournalRows>[1]>().toEqualTypeOf<readonly JournalRow[]>();
    expectTypeOf<Parameters<typeof renderSettleSummary>[1]>().toEqualTypeOf<SettleSummary>();
    expectTypeOf<Parameters<typeof renderImportSummary>[0]>().toEqualTypeOf<ImportSummary>();
    expectTypeOf<Parameters<typeof renderPruneSummary>[0]>().toEqualTypeOf<PruneSummary>();
  });
});
