// bin/fcast.js sends its reader to documents for the why: each it names exists, and a
// document and section named after it (a comma between them) names a heading that file has.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = readFileSync(`${root}bin/fcast.js`, 'utf8');

describe("bin/fcast.js's references", () => {
  it('names documents and sections that exist', () => {
    const refs = [...bin.matchAll(/\b((?:docs\/[\w./-]+|[A-Z]+)\.md)(?:, ([A-Z][\w ]*))?/g)];
    expect(refs.length).toBeGreaterThan(0);
    for (const [, file, section] of refs) {
      expect(existsSync(`${root}${file}`), file).toBe(true);
      if (section === undefined) continue;
      const headings = readFileSync(`${root}${file}`, 'utf8').match(/^#+ .*$/gm) ?? [];
      expect(
        headings.map((h) => h.replace(/^#+ /, '')),
        `${file}, ${section}`,
      ).toContain(section);
    }
  });
});
