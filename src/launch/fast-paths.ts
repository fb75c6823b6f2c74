// What a run answers without loading the bundle: `--version` (and `--version --json`), the TAB
// of the completion scripts (`__complete-symbols`), and the root's help on a pipe or to a file.
// Each writes what main would write, or declines and main answers.
import { helpColourByEnv } from '../cli/help-colour.js';
import { isVersionJson, versionJson } from '../cli/version.js';
import { environmentSecrets } from '../config/env-secrets.js';
import { mayShowSecret } from '../core/secret-spellings.js';
import { inGitHubActions } from '../output/workflow-commands.js';
import type { Install } from './install.js';
import { plainDescriptor, writeOut } from './stdio.js';

/** Whether a fast path answered `argv`. */
export function answered(argv: readonly string[], install: Install): boolean {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    writeOut(`${install.version()}\n`);
    return true;
  }
  if (isVersionJson(argv)) {
    const { node } = process.versions;
    writeOut(versionJson(install.version(), node, process.platform, process.arch, install.builtIn));
    return true;
  }
  if (argv.length === 1 && argv[0] === '__complete-symbols') {
    const tab = install.tab();
    if (tab === undefined) return false;
    tab.completeSymbols(writeOut);
    return true;
  }
  if (argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help')) return fastHelp(install);
  return false;
}

/**
 * The root's help as main prints it on a pipe or to a file: 80 columns, no colour. `npm run
 * build` writes it (dist/split/help.txt) from the bundle it has just made. False (main answers)
 * for a terminal (its width), colour the environment forces (helpColourByEnv, as main's help
 * asks it), under GitHub Actions (main's filter of workflow commands), when the text is missing or stale, and when a secret of the
 * environment may show in it (mayShowSecret): main's redactor would mask it there. A key in the
 * config file has the keys' shape (`..._ag_` and hex), which the help never holds.
 */
function fastHelp(install: Install): boolean {
  if (inGitHubActions(process.env) || helpColourByEnv(process.env) === true) return false;
  if (plainDescriptor(1) === undefined) return false;
  const text = install.help();
  if (text === undefined) return false;
  const folded = text.toString('latin1').toLowerCase();
  if (environmentSecrets(process.env).some((secret) => mayShowSecret(folded, secret))) return false;
  writeOut(text);
  return true;
}
