#!/usr/bin/env node
// `npm run completions` (after `npm run build`): writes completions/ from the built command
// tree, through `fcast completion SHELL` itself, so the committed scripts are exactly what
// users get from the command. test/unit/completion.test.ts fails when they drift apart.
// Then src/cli/command-list.ts, what the listings show of each command (help lists the
// commands without loading them): test/unit/program.test.ts fails when it differs from the tree.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

const { realContext } = await import('../dist/core/context.js');
const { main } = await import('../dist/cli/main.js');
const { COMPLETION_FILES } = await import('../dist/completion/generate.js');

const dir = fileURLToPath(new URL('../completions/', import.meta.url));
mkdirSync(dir, { recursive: true });

for (const [shell, file] of Object.entries(COMPLETION_FILES)) {
  let script = '';
  let errors = '';
  const ctx = {
    ...realContext(new AbortController().signal),
    io: { stdout: { write: (s) => (script += s) }, stderr: { write: (s) => (errors += s) }, stdin: Readable.from([]) },
    // The script must not depend on who generates it.
    env: {},
  };
  const code = await main(['completion', shell], ctx);
  if (code !== 0) {
    process.stderr.write(`npm run completions: 'fcast completion ${shell}' exited ${code}\n${errors}`);
    process.exit(1);
  }
  writeFileSync(join(dir, file), script);
  process.stdout.write(`wrote completions/${file}\n`);
}

const { buildProgram, commandListing } = await import('../dist/cli/program.js');
const sink = { write: () => true };
const whole = await buildProgram({
  ctx: { version: '0.0.0', io: { stdout: sink, stderr: sink } },
  setExitCode: () => {},
});
const listFile = fileURLToPath(new URL('../src/cli/command-list.ts', import.meta.url));
const source = readFileSync(listFile, 'utf8');
const start = source.indexOf('export const COMMAND_LIST');
if (start < 0) throw new Error('npm run completions: no COMMAND_LIST in src/cli/command-list.ts');
writeFileSync(
  listFile,
  `${source.slice(0, start)}export const COMMAND_LIST: readonly CommandListing[] = ${JSON.stringify(commandListing(whole))};\n`,
);
// In the repository's own format, so that `npm run lint` passes it as written.
const format = spawnSync('npx', ['biome', 'format', '--write', listFile], { stdio: 'inherit' });
if (format.status !== 0) process.exit(1);
process.stdout.write('wrote src/cli/command-list.ts\n');
