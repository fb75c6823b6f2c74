// src/cli/command-list.ts from the command tree tsc has just emitted (dist/cli/program.js):
// each command's name, arguments and summary, from which the root's help lists the commands
// without loading them. Written by `npm run build` before it bundles, so the bundle and
// dist/split/help.txt list a command added since the last build (test/unit/program.test.ts
// holds the file to the tree). The file is rewritten only when it changes.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export async function writeCommandList() {
  const { buildProgram, commandListing } = await import('../dist/cli/program.js');
  const sink = { write: () => true };
  const whole = await buildProgram({
    ctx: { version: '0.0.0', io: { stdout: sink, stderr: sink } },
    setExitCode: () => {},
  });
  const listFile = fileURLToPath(new URL('../src/cli/command-list.ts', import.meta.url));
  const source = readFileSync(listFile, 'utf8');
  const start = source.indexOf('export const COMMAND_LIST');
  if (start < 0) throw new Error('no COMMAND_LIST in src/cli/command-list.ts');
  const written = `${source.slice(0, start)}export const COMMAND_LIST: readonly CommandListing[] = ${JSON.stringify(commandListing(whole))};\n`;
  // In the repository's own format, so that `npm run lint` passes it as written.
  const format = spawnSync('npx', ['biome', 'format', '--stdin-file-path', listFile], {
    input: written,
    encoding: 'utf8',
  });
  if (format.status !== 0) throw new Error(`biome format: ${format.stderr}`);
  if (format.stdout === source) return false;
  writeFileSync(listFile, format.stdout);
  return true;
}
