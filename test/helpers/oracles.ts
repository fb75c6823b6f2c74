// Tests that hold fcast's figures against an outside implementation (scikit-learn, scipy,
// statsmodels, R). Where the implementation is missing they skip with the reason on a
// developer's machine, and fail under CI=true: .ci/run installs every oracle, so a CI run that
// cannot reach one is broken, not green (an oracle test that silently skips checks nothing).
import { spawnSync } from 'node:child_process';
import { describe, it } from 'vitest';

/** Debian's Python: the pyenv one on PATH has no scientific packages. */
export const PYTHON = '/usr/bin/python3';

const seen = new Map<string, boolean>();

/** Whether Debian's Python imports every module named. */
export function hasPython(...modules: string[]): boolean {
  return probe(`py:${modules.join(',')}`, PYTHON, ['-c', `import ${modules.join(', ')}`]);
}

/** Whether Rscript runs and loads every package named. */
export function hasR(...packages: string[]): boolean {
  const load = packages.map((p) => `suppressMessages(library(${p}))`).join(';') || 'invisible(0)';
  return probe(`r:${packages.join(',')}`, 'Rscript', ['-e', load]);
}

function probe(key: string, command: string, args: string[]): boolean {
  let ok = seen.get(key);
  if (ok === undefined) {
    ok = spawnSync(command, args, { stdio: 'ignore', timeout: 60_000 }).status === 0;
    seen.set(key, ok);
  }
  return ok;
}

export const underCi = (): boolean => process.env.CI === 'true';

/**
 * `describe` when the oracle is there; else a skipped block naming what is missing, or, under
 * CI=true, one failing test saying what to install.
 */
export function describeWithOracle(title: string, oracle: { present: boolean; needs: string }, body: () => void): void {
  if (oracle.present) {
    describe(title, body);
  } else if (underCi()) {
    describe(title, () => {
      it(`needs ${oracle.needs}`, () => {
        throw new Error(`${oracle.needs} is missing, and CI=true: .ci/run installs it, so this run is broken`);
      });
    });
  } else {
    describe.skip(`${title} (skipped: ${oracle.needs} is missing)`, body);
  }
}
