// What src/journal/ exports, src/ uses: a function kept only for a test lives with the tests
// (test/helpers/), so that the journal's code is the code fcast runs.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', '..', 'src');

/** Every .ts file under src/, with its text. */
function sources(dir = SRC): Array<{ path: string; text: string }> {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith('.ts') ? [{ path, text: readFileSync(path, 'utf8') }] : [];
  });
}

describe('src/journal/', () => {
  it('exports no function, class or constant that nothing in src/ uses, its own file included', () => {
    const all = sources();
    const unused = all
      .filter((f) => f.path.startsWith(join(SRC, 'journal')))
      .flatMap((f) =>
        [...f.text.matchAll(/^export (?:async )?(?:function|const|class|let) (\w+)/gm)].map((m) => ({
          file: f.path,
          name: m[1]!,
        })),
      )
      .filter(({ name }) => {
        const word = new RegExp(`\\b${name}\\b`, 'g');
        const uses = all.reduce((n, f) => n + (f.text.match(word)?.length ?? 0), 0);
        // The definition itself is one occurrence; a use anywhere (its own file too) is another.
        return uses <= 1;
      })
      .map(({ file, name }) => `${file.slice(SRC.length + 1)}: ${name}`);
    expect(unused).toEqual([]);
  });
});
