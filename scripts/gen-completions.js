#!/usr/bin/env node
// `npm run completions` (after `npm run build`): writes completions/ from the built command
// tree, through `fcast completion SHELL` itself, so the committed scripts are exactly what
// users get from the command. test/unit/completion.test.ts fails when they drift apart.
// Then src/cli/command-list.ts (scripts/command-list.js), which the build also writes.
import { mkdirSync, writeFileSync } from 'node:fs';
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

// And src/cli/command-list.ts, which `npm run build` writes too (before it bundles).
const { writeCommandList } = await import('./command-list.js');
if (await writeCommandList()) process.stdout.write('wrote src/cli/command-list.ts\n');
