// GitHub Actions' workflow commands: escaped as the runner reads them (actions/toolkit's
// command.ts: %, CR and LF in the message; also : and , in a property), one line whatever the
// text, nothing at all outside Actions, and the step summary appended to, never replaced.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evidenceAnnotations } from '../../src/commands/track-record/shared/annotations.js';
import { compareWithBaseline } from '../../src/evidence/baseline.js';
import { runChecks } from '../../src/evidence/checks.js';
import { recordRows } from '../../src/evidence/rows.js';
import {
  annotate,
  escapeData,
  escapeProperty,
  markdownText,
  verdictMarkdown,
  workflowCommand,
} from '../../src/output/annotations.js';
import { Output } from '../../src/output/io.js';
import { tempDir } from '../helpers/cli.js';

/** What the runner does to a message or property: the inverse of the escaping. */
const runnerUnescape = (s: string) =>
  s
    .replaceAll('%0D', '\r')
    .replaceAll('%0A', '\n')
    .replaceAll('%3A', ':')
    .replaceAll('%2C', ',')
    .replaceAll('%25', '%');

function capture() {
  const out = { stdout: '', stderr: '' };
  const writer = (stream: 'stdout' | 'stderr') => ({
    write: (s: string) => {
      out[stream] += s;
      return true;
    },
  });
  const io = { stdout: writer('stdout'), stderr: writer('stderr') };
  return { out, output: new Output(io as never, false, false) };
}

describe('escaping', () => {
  it('data: % first, then CR and LF; a colon or comma stays', () => {
    expect(escapeData('50% done\r\nnext: a, b')).toBe('50%25 done%0D%0Anext: a, b');
    expect(escapeData('%0A')).toBe('%250A');
  });

  it('properties: also : and ,', () => {
    expect(escapeProperty('a:b,c%d\re\nf')).toBe('a%3Ab%2Cc%25d%0De%0Af');
    for (const s of ['a:b,c', '100%', 'x\r\ny', '%3A literal', '::error::'])
      expect(runnerUnescape(escapeProperty(s))).toBe(s);
  });

  it('a workflow command is one line, whatever the title and message hold', () => {
    const line = workflowCommand({
      level: 'error',
      title: 'fcast accuracy: gate, 1h\n::warning::injected',
      message: '1h: 50% < 55%\r\n::error::injected\x1b[31m',
    });
    expect(line).toBe(
      '::error title=fcast accuracy%3A gate%2C 1h %3A%3Awarning%3A%3Ainjected::1h: 50%25 < 55%25%0A::error::injected',
    );
    expect(line).not.toContain('\n');
    expect(workflowCommand({ level: 'warning', message: 'small' })).toBe('::warning::small');
  });
});

describe('annotate', () => {
  const report = { annotations: [{ level: 'error' as const, title: 't', message: 'm' }], summary: '### Table\n' };

  it('outside GitHub Actions writes nothing, anywhere', () => {
    const dir = tempDir();
    const summary = join(dir, 'summary.md');
    for (const env of [{}, { GITHUB_ACTIONS: 'false' }, { GITHUB_ACTIONS: '1' }]) {
      const { out, output } = capture();
      annotate(output, { ...env, GITHUB_STEP_SUMMARY: summary }, report);
      expect(out).toEqual({ stdout: '', stderr: '' });
    }
    expect(() => readFileSync(summary)).toThrow();
  });

  it('in Actions: the commands on stderr, the summary appended after what the file held', () => {
    const dir = tempDir();
    const summary = join(dir, 'summary.md');
    writeFileSync(summary, 'earlier step\n');
    const { out, output } = capture();
    annotate(output, { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary }, report);
    expect(out).toEqual({ stdout: '', stderr: '::error title=t::m\n' });
    expect(readFileSync(summary, 'utf8')).toBe('earlier step\n### Table\n\n');
  });

  it('leaves the summary file alone when there is no summary, and writes none when GITHUB_STEP_SUMMARY is unset', () => {
    const summary = join(tempDir(), 'summary.md');
    writeFileSync(summary, 'earlier step\n');
    const noSummary = capture();
    annotate(
      noSummary.output,
      { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary },
      { annotations: report.annotations },
    );
    expect(noSummary.out).toEqual({ stdout: '', stderr: '::error title=t::m\n' });
    expect(readFileSync(summary, 'utf8')).toBe('earlier step\n');
    for (const env of [{ GITHUB_ACTIONS: 'true' }, { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: '' }]) {
      const noFile = capture();
      annotate(noFile.output, env, report);
      expect(noFile.out).toEqual({ stdout: '', stderr: '::error title=t::m\n' });
    }
  });

  it('a summary file that cannot be written is a warning, and the commands still go out', () => {
    const { out, output } = capture();
    annotate(output, { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: join(tempDir(), 'no', 'such', 'dir') }, report);
    expect(out.stderr).toMatch(
      /^::error title=t::m\nwarning: could not append the summary to GITHUB_STEP_SUMMARY \(.*\): ENOENT\n$/,
    );
  });
});

describe('the verdict and the evidence annotations', () => {
  it('Markdown text is one line with its own characters escaped', () => {
    expect(markdownText('a_b *c* [x](y) <b>|#\n')).toBe('a\\_b \\*c\\* \\[x\\](y) \\<b\\>\\|\\#');
    expect(verdictMarkdown({ subject: 'fcast t', passed: true, problems: [], lines: ['ok'] })).toBe(
      '**Verdict: passed.** fcast t: every check held.\n\n- ok',
    );
  });

  it('a failed verdict names each kind of failure, and ends with its last line', () => {
    const failed = { subject: 'fcast accuracy', passed: false, problems: ['2 gate failures', '1 audit difference'] };
    expect(verdictMarkdown({ ...failed, lines: ['gate failed: 1h'] })).toBe(
      '**Verdict: failed** (exit 8). fcast accuracy: 2 gate failures; 1 audit difference.\n\n- gate failed: 1h',
    );
    expect(verdictMarkdown({ ...failed, lines: [] })).toBe(
      '**Verdict: failed** (exit 8). fcast accuracy: 2 gate failures; 1 audit difference.',
    );
  });

  const body = {
    results: [
      {
        timeframe: '1h',
        n_settled: 10,
        outcomes: { win: 2, loss: 8, neutral: 0 },
        maturity: 'insufficient_sample',
        resolved_win_rate: 0.2,
      },
      {
        timeframe: '6h',
        n_settled: 500,
        outcomes: { win: 300, loss: 200, neutral: 0 },
        maturity: 'growing_sample',
        resolved_win_rate: 0.6,
      },
      {
        timeframe: '1d',
        n_settled: 500,
        outcomes: { neutral: 500 },
        maturity: 'growing_sample',
        resolved_win_rate: null,
      },
    ],
  };

  it('one ::error per timeframe and check, its failures as the lines of the message; warnings and small samples as ::warning', () => {
    const report = runChecks(body, { minSettled: 100, minWinRate: 0.5, audit: true }, { strict: false });
    const annotations = evidenceAnnotations('accuracy', report, recordRows(body).rows);
    expect(annotations.map((a) => [a.level, a.title])).toEqual([
      ['error', 'fcast accuracy: gate failed (1h)'],
      ['error', 'fcast accuracy: gate failed (1d)'],
      // The published intervals are missing: the audit disagrees, once per timeframe.
      ['error', 'fcast accuracy: audit (1h)'],
      ['error', 'fcast accuracy: audit (6h)'],
      ['warning', 'fcast accuracy: warning'],
      ['warning', 'fcast accuracy: small sample (1h)'],
    ]);
    expect(annotations[0]!.message).toBe(
      'gate failed: 1h: n_settled 10 is below --min-settled 100\ngate failed: 1h: resolved_win_rate 0.2 is below --min-win-rate 0.5',
    );
    expect(annotations[2]!.message).toMatch(/^audit: 1h: resolved_win_rate_ci95 published missing/);
    expect(annotations[4]!.message).toMatch(/^audit: 1d: not auditable/);
  });

  it('a --baseline shrink: one ::error per timeframe whose counts went down or that vanished', () => {
    const before = { protocol: { id: 'p' }, results: body.results };
    const now = {
      protocol: { id: 'p' },
      results: [{ ...body.results[0]!, n_settled: 9, outcomes: { win: 1, loss: 8, neutral: 0 } }, body.results[1]!],
    };
    const comparison = compareWithBaseline(before, now);
    const report = runChecks(now, {}, { strict: false, baseline: { file: 'tr.json', comparison } });
    const rows = recordRows(now).rows.filter((r) => r.maturity !== 'insufficient_sample');
    expect(evidenceAnnotations('track-record', report, rows)).toEqual([
      {
        level: 'error',
        title: 'fcast track-record: baseline (1h)',
        message: 'baseline: 1h: counts went down since tr.json: n_settled 10 -> 9, win 2 -> 1',
      },
      {
        level: 'error',
        title: 'fcast track-record: baseline (1d)',
        message: 'baseline: 1d: in tr.json but missing now',
      },
    ]);
  });

  it('nothing failed, nothing small: no annotation', () => {
    const report = runChecks(body, { minSettled: 1 }, { strict: false });
    const rows = recordRows(body).rows.filter((r) => r.maturity !== 'insufficient_sample');
    expect(evidenceAnnotations('track-record', report, rows)).toEqual([]);
  });
});
