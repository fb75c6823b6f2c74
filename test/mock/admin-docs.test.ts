// docs/reference.md's admin table lists every `/__mock/` route with each method the emulator
// answers it with (issue 43: /__mock/clock, which docs/journal.md uses, was missing).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

describe('the admin table of docs/reference.md', () => {
  const admin = read('src/mock/admin.ts');
  const table = read('docs/reference.md')
    .split('\n')
    .filter((line) => /^\| `(GET|POST|PUT|DELETE) \/__mock\//.test(line));

  it('has a row for every route and method of src/mock/admin.ts', () => {
    const routes = [...admin.matchAll(/pathname === '(\/__mock\/[a-z]+)'/g)].map((m) => m[1]!);
    expect(routes.length).toBeGreaterThanOrEqual(3);
    // Each route's block names the methods it takes: `method === 'GET'`.
    for (const [i, route] of routes.entries()) {
      const block = admin.slice(admin.indexOf(`'${route}'`), admin.indexOf(`'${routes[i + 1] ?? '\u0000'}'`) >>> 0);
      const methods = new Set([...block.matchAll(/method === '([A-Z]+)'/g)].map((m) => m[1]!));
      // A GET is answered by the fall-through of the clock's block: it says so in its 405.
      if (/use GET/.test(block)) methods.add('GET');
      for (const method of methods) {
        const row = table.find(
          (line) => line.includes(`\`${method} ${route}\``) || (line.includes(route) && line.includes(`\`${method}\``)),
        );
        expect(row, `${method} ${route}`).toBeDefined();
      }
    }
  });

  it('names no route the emulator does not answer', () => {
    for (const line of table) {
      const route = /\/__mock\/[a-z]+/.exec(line)![0];
      expect(admin).toContain(`'${route}'`);
    }
    // And every /__mock/ path the sources name is one of them.
    const named = new Set([...read('src/mock/clock.ts').matchAll(/\/__mock\/[a-z]+/g)].map((m) => m[0]));
    for (const route of named)
      expect(
        table.some((line) => line.includes(route)),
        route,
      ).toBe(true);
  });
});
