// csv-stringify (the Node CSV project) told fcast's rules, as the oracle for the project's own
// CSV writer (src/output/formats/delimited.ts): the property test holds the two to the same
// bytes, and test/bench/csv-writer.bench.ts times them side by side. Its rules, put in its
// terms: a number as sent is written as sent and never prefixed; true and false as words; text
// cleaned of terminal controls, and prefixed with ' when it began with a formula character as
// sent or as cleaned (cleaning turns a leading CR into a line break, which csv-stringify would
// not prefix).
import { stringify } from 'csv-stringify/sync';
import type { Cell } from '../../src/output/formats/delimited.js';
import { cleanBlock } from '../../src/output/sanitize.js';

const FORMULA_START = /^[=+\-@\t\r\uff1d\uff0b\uff0d\uff20]/;
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

function text(sent: string) {
  const cleaned = cleanBlock(sent);
  return FORMULA_START.test(sent) && !FORMULA_START.test(cleaned)
    ? { value: `'${cleaned}`, escape_formulas: false }
    : cleaned;
}

const OPTIONS = {
  escape_formulas: true,
  record_delimiter: 'unix' as const,
  cast: {
    boolean: (b: boolean) => String(b),
    number: (n: number) => ({ value: String(n), escape_formulas: false }),
    object: (c: object) => {
      const sent = (c as { number: string }).number;
      return JSON_NUMBER.test(sent) ? { value: sent, escape_formulas: false } : text(sent);
    },
    string: text,
  },
};

export function csvStringify(header: readonly string[], rows: readonly Cell[][]): string {
  return stringify([header, ...rows], OPTIONS);
}
