// How `fcast doctor` shows its checks: a line each on a terminal, one document with --json.
import { clean } from '../output/sanitize.js';
import { textWidth, wrapIndented } from '../output/table.js';
import type { Output } from '../output/io.js';
import type { Check } from './check.js';

/** `--json`: one document for scripts. */
export function checksAsJson(checks: readonly Check[]) {
  return {
    ok: checks.every((c) => c.status !== 'fail'),
    checks: checks.map((c) => ({
      name: c.name,
      status: c.status,
      ok: c.status !== 'fail',
      detail: c.detail,
      hint: c.hint ?? null,
    })),
  };
}

/** One line per check: status mark, name, finding, and how to fix it. */
/**
 * One line per check (`✓ name  detail`), the fix on a line of its own below; on a terminal both

 */
export function renderChecks(out: Output, checks: readonly Check[]): string {
  const { c } = out;
  const mark = { pass: c.green('✓'), warn: c.yellow('!'), fail: c.red('✗') };
  const width = Math.max(...checks.map((check) => check.name.length));
  const indent = 2 + width + 2;
  const wrap = (text: string) => wrapIndented(text, textWidth(out), indent);
  return checks
    .map((check) => {
      const line = `${mark[check.status]} ${check.name.padEnd(width)}  ${wrap(clean(check.detail))}`;
      return check.hint ? `${line}\n${' '.repeat(indent)}${wrap(`fix: ${clean(check.hint)}`)}` : line;
    })
    .join('\n');
}
