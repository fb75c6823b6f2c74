// One emulator per test file, over real loopback HTTP; faults and the request log are reset
// before each test so tests stay independent of their order.
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startMock, type MockOptions, type MockServer } from '../../src/mock/index.js';
import { runCli, type RunOptions, type RunResult } from './cli.js';

/** A fixed clock: 2026-11-22 12:00:00 UTC. */
export const FIXED_NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

export interface Emulator {
  readonly server: MockServer;
  /** Runs fcast against the emulator, keyless unless `env` adds a key. */
  run(argv: string[], opts?: RunOptions): Promise<RunResult>;
  /** Runs fcast with the emulator's test key. */
  runWithKey(argv: string[], opts?: RunOptions): Promise<RunResult>;
}

export function useEmulator(options: MockOptions = {}): Emulator {
  let server: MockServer | undefined;
  beforeAll(async () => {
    // The clock stands still, so every request of a file falls in one minute: a limit of 60
    // would bite the suite, not the code under test (test/mock/gateway.test.ts tests it).
    server = await startMock({
      seed: 'test',
      now: () => FIXED_NOW,
      gatewayLimits: { perMinute: 100_000, perDay: 100_000 },
      ...options,
    });
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(() => {
    server?.setFaults([]);
    server?.requests.splice(0);
  });
  const emulator: Emulator = {
    get server() {
      if (!server) throw new Error('the emulator is not running');
      return server;
    },
    run: (argv, opts = {}) =>
      runCli(argv, { now: FIXED_NOW, ...opts, env: { FCAST_BASE_URL: emulator.server.url, ...opts.env } }),
    runWithKey: (argv, opts = {}) =>
      emulator.run(argv, { ...opts, env: { FCAST_API_KEY: emulator.server.testKey, ...opts.env } }),
  };
  return emulator;
}
