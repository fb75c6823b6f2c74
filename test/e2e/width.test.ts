// What a person sees on a terminal 60, 80 and 120 columns wide: every view fits, the least
// useful columns go first, and the snapshots show what stays.
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';

const emu = useEmulator();

const VIEWS: Array<[name: string, argv: string[]]> = [
  ['demo', ['demo']],
  ['predict', ['predict', 'ETH/USD']],
  ['predict several', ['predict', 'BTC/USD', 'ETH/USD', 'XAU/USD']],
  ['predict --candles', ['predict', 'BTC/USD', '--candles', '--tf', '15min,1h']],
  ['symbols', ['symbols']],
];

describe.each([60, 80, 120])('on a terminal %i columns wide', (columns) => {
  it.each(VIEWS)('%s fits', async (_name, argv) => {
    const r = await emu.runWithKey([...argv, '--no-color'], { tty: true, columns });
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(columns);
    expect(lines.slice(-3).join('\n')).toMatch(/Source: .*\nTier: \w+ · data delayed \d+ min$/);
    expect(r.stdout).toMatchSnapshot();
  });
});

/** Every other view: each line within the width (their layouts are snapshotted elsewhere). */
const MORE_VIEWS: Array<[name: string, argv: string[]]> = [
  ['predict --chart', ['predict', 'BTC/USD', '--chart']],
  ['predict --detail', ['predict', 'BTC/USD', 'ETH/USD', '--detail']],
  ['track-record', ['track-record']],
  ['accuracy', ['accuracy', '--tf', '1h']],
  ['verify', ['verify', '1']],
  ['discover', ['discover']],
  ['cmd snapshot', ['cmd', 'snapshot']],
  ['cmd search', ['cmd', 'search', 'BTC']],
  ['cmd indicators', ['cmd', 'indicators', 'BTCUSD', '1h']],
  ['cmd analyze', ['cmd', 'analyze', 'BTCUSD', '1h']],
  ['cmd opportunities', ['cmd', 'opportunities', '5']],
  ['cmd macro', ['cmd', 'macro']],
  ['cmd calendar', ['cmd', 'calendar', 'EURUSD']],
  ['cmd events', ['cmd', 'events', 'economic']],
];

describe.each([60, 80])('every other view on a terminal %i columns wide', (columns) => {
  it.each(MORE_VIEWS)('%s fits', async (_name, argv) => {
    const r = await emu.runWithKey([...argv, '--no-color'], { tty: true, columns });
    expect(r.code, r.stderr).toBe(0);
    for (const line of r.stdout.trimEnd().split('\n')) expect([...line].length, line).toBeLessThanOrEqual(columns);
  });
});

it('piped output keeps every column, whatever COLUMNS says', async () => {
  const r = await emu.run(['demo'], { env: { COLUMNS: '40' } });
  expect(r.stdout).toMatch(
    /^TF\s+Dir\s+Prob\s+Resolves\s+At \(UTC\)\s+Target\s+Move\s+Long\s+Short\s+Flat\s+Conf\s+Horizon\s+Age\s+Anchor\s+Status\s+ia2 Δ\s+ia1$/m,
  );
});
