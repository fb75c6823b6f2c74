// A run registers only the command it names; help, completion and unknown names get the
// whole tree, so listings and suggestions never miss a command.
import { describe, expect, it } from 'vitest';
import type { App } from '../../src/cli/command.js';
import { buildProgram } from '../../src/cli/program.js';

const sink = { write: () => true };
const app = (): App => ({
  ctx: { version: '0.0.0', io: { stdout: sink, stderr: sink } } as unknown as App['ctx'],
  settle: () => undefined,
});
const registered = async (argv?: string[]) => (await buildProgram(app(), argv)).commands.map((c) => c.name());

describe('the command tree', () => {
  it('registers only the named command, past global flags and their values', async () => {
    expect(await registered(['demo', '--json'])).toEqual(['demo']);
    expect(await registered(['--timeout', '5', '--json', 'predict', 'BTC/USD'])).toEqual(['predict']);
    // A flag's value that happens to be a command name is not the command.
    expect(await registered(['--base-url', 'demo', 'symbols'])).toEqual(['symbols']);
    expect(await registered(['--base-url=http://x', 'cmd', 'macro'])).toEqual(['cmd']);
    expect(await registered(['__complete-symbols'])).toEqual(['completion', '__complete-symbols']);
  });

  it('registers every command for help, completion, unknown names and no argv', async () => {
    const all = await registered();
    expect(all.length).toBeGreaterThan(10);
    for (const argv of [[], ['--help'], ['help', 'demo'], ['completion', 'bash'], ['demoo'], ['--', 'demo']])
      expect(await registered(argv)).toEqual(all);
  });
});
