// The user pages say what a user needs; how fcast does it, and why, is in docs/decisions/
// (issue 33: docs/journal.md and docs/watch.md explained JSON.parse, scikit-learn's eps and
// src/watch/ansi.ts to users). Each note is listed in the decisions' index.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/docs.js';

const read = (path: string) => readFileSync(join(REPO, path), 'utf8');
/** What only a contributor reads: source and test paths, parser and library internals, benches. */
const INTERNALS = [
  /`(src|test|scripts)\//,
  /JSON\.parse/,
  /scikit-learn/,
  /numpy/,
  /fast path/i,
  /property test/,
  /npm run bench/,
];

describe('user docs', () => {
  it.each(['docs/journal.md', 'docs/watch.md'])('%s names no internals', (page) => {
    const text = read(page);
    for (const pattern of INTERNALS) expect(text, `${page}: ${pattern}`).not.toMatch(pattern);
  });

  // A record's origin includes the port and `fcast mock` picks a free one by default: forecasts
  // recorded against one run never settle against the next on another port, unless it is fixed.
  it('say that recording against the emulator wants a fixed --port', () => {
    expect(read('docs/journal.md')).toMatch(/The port is part of the origin[\s\S]*`fcast mock --port 8787`/);
    expect(read('README.md')).toMatch(
      /`--record`[\s\S]*fixed port[\s\S]*`fcast mock --port 8787`[\s\S]*origin includes the port/,
    );
  });

  it('every decision note is in the index of docs/decisions/README.md', () => {
    const index = read('docs/decisions/README.md');
    for (const note of readdirSync(join(REPO, 'docs/decisions')).filter((f) => /^\d{4}-\d\d-\d\d-.*\.md$/.test(f)))
      expect(index, note).toContain(`](${note})`);
  });
});
