// One output boundary, held structurally: no module of src/ writes to a stream or a file but
// core/sinks.ts (which redacts) and the few listed here, each for a file that is not output
// or whose text passed the boundary already, with its reason and its count of writes. A new
// write anywhere fails this test until it goes through sinks.ts, or is listed with a reason.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '../../src');

/** A stream or file write of Node's, the atomic write built on them, or the process's own streams. */
const WRITE_NAME =
  /\b(?:writeFileSync|writeSync|appendFileSync|appendFile|writeFile|createWriteStream|writev|writevSync|writeAtomically)\b|process\.(?:stdout|stderr)\b/;
/** A call of one of them (not its import, not its definition). */
const WRITE_CALL =
  /(?<!function )\b(?:writeFileSync|writeSync|appendFileSync|appendFile|writeFile|createWriteStream|writev|writevSync|writeAtomically)\s*\(|process\.(?:stdout|stderr)\b/g;

/** file -> [writes, why it may write without sinks.ts] */
const ALLOWED: Record<string, [number, string]> = {
  'core/sinks.ts': [2, 'the boundary itself: appendToFile and saveFile redact before they write'],
  'core/atomic-write.ts': [1, 'the primitive of saveFile and of the config file; its callers are counted here'],
  'core/context.ts': [
    3,
    "the real streams, handed to main, which wraps them (redactedIO) before any command runs; releaseStdout's empty flush",
  ],
  'launch/stdio.ts': [
    5,
    "the descriptors under main's redacted writers (core/sinks.ts wraps them), and the fast paths' fixed text: the version, the TAB listing, the build's help (written only when no secret of the environment may show in it); the lines of a failed write and an internal error",
  ],
  'config/atomic-write.ts': [0, "re-exports core's atomic write for config/ and journal/"],
  'config/config-store.ts': [1, "the config file: settings, not output (mode 0600, fcast's own keys in it)"],
  'config/file-lock.ts': [2, 'lock files: a pid and a time, not output'],
  'completion/symbols-cache.ts': [1, 'the symbols cache: plain symbols only (isPlainSymbol), read back by TAB'],
  'journal/journal-files.ts': [1, "appendLines writes text passed through sinks' redactText (checked below)"],
  'journal/index-file.ts': [
    1,
    "the index (index.json), a cache of the month files: its text passed through sinks' redactText (checked below)",
  ],
  'journal/import.ts': [
    1,
    '`journal import -` copies stdin to a private temporary file (0600 in a 0700 directory) that it reads and removes: input, not output',
  ],
  'journal/prune.ts': [1, 'rewrites journal lines byte for byte: they passed the boundary when appended'],
  'mock/kept.ts': [
    1,
    "the emulator's own state (hashes of the keys it issued, the addresses registered), written atomically: not shown to anyone",
  ],
  'mock/server.ts': [
    1,
    "the emulator's request log when started alone (tests, the bench); `fcast mock` hands it ctx's redacted stderr",
  ],
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** The code of a file without its comments (a comment may name what it does not call). */
const code = (path: string) =>
  readFileSync(path, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');

describe('the output boundary', () => {
  const files = sources(SRC).map((path) => ({ name: relative(SRC, path), text: code(path) }));

  it('is the only way out: no module but the listed ones names a write of a stream or a file', () => {
    const writers = files.filter((f) => WRITE_NAME.test(f.text));
    expect(writers.map((f) => f.name).sort()).toEqual(Object.keys(ALLOWED).sort());
  });

  it('lets each listed module write as often as its reason says, and no more', () => {
    const counts = Object.fromEntries(
      files.filter((f) => f.name in ALLOWED).map((f) => [f.name, f.text.match(WRITE_CALL)?.length ?? 0]),
    );
    expect(counts).toEqual(Object.fromEntries(Object.entries(ALLOWED).map(([name, [n]]) => [name, n])));
  });

  it("routes the journal's lines and index, the step summary and --save through the redactor", () => {
    const text = (name: string) => files.find((f) => f.name === name)!.text;
    expect(text('journal/journal-files.ts')).toMatch(/const safe = redactText\(text\);[\s\S]*Buffer\.from\(safe, /);
    expect(text('journal/index-file.ts')).toContain('writeFileSync(temp, redactText(index.serialize())');
    expect(text('output/annotations.ts')).toMatch(/appendToFile\(file, /);
    expect(text('commands/track-record/shared/run.ts')).toMatch(/saveFile\(saveTo, /);
  });

  it('catches a write that skips the boundary (the rule itself can fail)', () => {
    const sneaky = code(join(SRC, 'output/annotations.ts')).replace('appendToFile(file,', 'appendFileSync(file,');
    expect(WRITE_NAME.test(sneaky)).toBe(true);
    expect('process.stdout.write(x)'.match(WRITE_CALL)).toHaveLength(1);
    expect("import { writeFile as w } from 'node:fs/promises'".match(WRITE_NAME)).toHaveLength(1);
  });
});

describe('the file sinks', () => {
  const KEY = `mfa_ag_${'7c2f9a41d83be6050f1c'}${'4a97b2d8e36f5a0c1b94'}`;
  const GW = 'gw/Ke+y=S3cr3t%Tok&n-Zq8';

  it('redact with the key-shape rule alone when no run is open, and with every open run’s keys', async () => {
    const { openBoundary, redactText } = await import('../../src/core/sinks.js');
    const { Redactor } = await import('../../src/core/redact.js');
    expect(redactText(`k=${KEY} g=${GW}`)).toBe(`k=mfa_ag_7c2f...1b94 g=${GW}`);
    const closeA = openBoundary(new Redactor(() => [GW]));
    const closeB = openBoundary(new Redactor(() => [KEY]));
    expect(redactText(`g=${encodeURIComponent(GW)} h=${KEY.slice(7, 27)}`)).toBe('g=gw*K...-Zq8 h=<redacted>');
    closeA();
    closeB();
    expect(redactText(`g=${GW}`)).toBe(`g=${GW}`);
  });

  it('append and save the text redacted ($GITHUB_OUTPUT, the step summary, --save)', async () => {
    const { appendToFile, openBoundary, saveFile } = await import('../../src/core/sinks.js');
    const { Redactor } = await import('../../src/core/redact.js');
    const { tempDir } = await import('../helpers/cli.js');
    const dir = tempDir();
    const close = openBoundary(new Redactor(() => [GW]));
    try {
      appendToFile(join(dir, 'output'), `echo=${GW}\n`);
      appendToFile(join(dir, 'output'), `b64=${Buffer.from(GW).toString('base64')}\n`);
      saveFile(join(dir, 'saved.json'), `{"k":"${GW.toUpperCase()}"}\n`, 0o644);
    } finally {
      close();
    }
    expect(readFileSync(join(dir, 'output'), 'utf8')).toBe('echo=gw*K...-Zq8\nb64=gw*K...-Zq8\n');
    expect(readFileSync(join(dir, 'saved.json'), 'utf8')).toBe('{"k":"gw*K...-Zq8"}\n');
  });
});
