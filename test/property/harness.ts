// The harness of the property tests: one loopback server that answers every request with the
// body under test, realistic bodies of every resource taken from the emulator, hostile values
// and mutations that put those values anywhere in a body, and the commands that read each
// resource. A property starts the server once and reuses it for all its runs.
import { createServer, type Server } from 'node:http';
import fc from 'fast-check';
import { startMock } from '../../src/mock/index.js';
import { FIXED_NOW } from '../helpers/emulator.js';
import { runCli, type RunResult } from '../helpers/cli.js';

export type Resource =
  | 'forecast'
  | 'track record'
  | 'symbols'
  | 'registration'
  | 'problem'
  | 'gateway'
  | 'verify'
  | 'discovery';

export const RESOURCES: Resource[] = [
  'forecast',
  'track record',
  'symbols',
  'registration',
  'problem',
  'gateway',
  'verify',
  'discovery',
];

/**
 * Runs per property (16 of them): 1,000 in `npm test` (~45 s on a quiet 2-core machine: each
 * run is a whole main() over loopback, ~3-20 ms); 10,000 under `npm run fuzz`.
 * FCAST_FUZZ_RUNS sets any other count.
 */
export const RUNS = Number(process.env.FCAST_FUZZ_RUNS ?? 1000);

/**
 * `npm test` replays one fixed seed, so that CI runs the same bodies every time and a red run
 * is the code's doing, not the draw's; `npm run fuzz` (FCAST_FUZZ_SEED=random) draws new ones
 * and prints the seed of any failure, which FCAST_FUZZ_SEED=N replays.
 */
const seedSetting = process.env.FCAST_FUZZ_SEED ?? '20261122';
export const FUZZ_PARAMS = {
  numRuns: RUNS,
  ...(seedSetting === 'random' ? {} : { seed: Number(seedSetting) }),
};

// Hex letters in every 12 characters: a key of zeros would be masked inside the bodies' long numbers.
export const REST_KEY = `mfa_ag_${'f00ba7'.repeat(7).slice(0, 40)}`;

/** The commands that read a resource; a run picks one. */
export const COMMANDS: Record<Resource, string[][]> = {
  forecast: [['demo'], ['predict', 'BTC/USD'], ['predict', 'BTC/USD', '--chart']],
  'track record': [['track-record'], ['accuracy', '--tf', '1h'], ['track-record', '--format', 'markdown']],
  symbols: [['symbols']],
  registration: [['register', '--email', 'fuzz@example.com', '--no-save']],
  problem: [['demo'], ['symbols'], ['verify', '1'], ['cmd', 'macro'], ['register', '--email', 'a@example.com']],
  gateway: [
    ['cmd', 'macro'],
    ['cmd', 'analyze', 'BTC/USD', '1h'],
    ['cmd', 'opportunities', '5'],
  ],
  verify: [['verify', '1']],
  discovery: [['discover']],
};

const PROBLEM_STATUSES = [400, 401, 403, 404, 409, 429, 500, 502, 503];

/** Realistic bodies of each resource, as the emulator serves them: the starting points of mutation. */
export async function collectBodies(): Promise<Record<Resource, unknown[]>> {
  const mock = await startMock({ seed: 'fuzz', now: () => FIXED_NOW });
  const auth = { authorization: `Bearer ${mock.testKey}` };
  const get = async (path: string, headers: Record<string, string> = {}) =>
    (await fetch(`${mock.url}/api/agent/v1/${path}`, { headers })).json();
  const gateway = (command: string, args: unknown[]) =>
    fetch(`${mock.url}/api/v1/agent/command`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ command, args }),
    }).then((r) => r.json());
  try {
    return {
      forecast: [await get('demo.php'), await get('predictions.php?symbol=ETH/USD&candles=1', auth)],
      'track record': [await get('track-record.php'), await get('accuracy.php?tf=1h')],
      symbols: [await get('symbols.php', auth)],
      registration: [
        await (
          await fetch(`${mock.url}/api/agent/v1/register.php`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ email: 'fuzz@example.com' }),
          })
        ).json(),
      ],
      problem: [await get('predictions.php?symbol=NOPE/USD', auth), await get('symbols.php')],
      gateway: [
        await gateway('macro', []),
        await gateway('analyze', ['BTCUSD', '1h']),
        await gateway('opportunities', [5]),
        await gateway('calendar', ['EURUSD']),
      ],
      verify: [await get('verify.php?id=1'), await get('verify.php?id=2')],
      discovery: [await get('')],
    };
  } finally {
    await mock.close();
  }
}

// --- hostile values ------------------------------------------------------------------------

const HOSTILE_TEXT = [
  '\x1b[31m',
  '\x1b[2J',
  '\x1b]8;;https://evil.example\x1b\\',
  '\x1b]0;title\x07',
  '\x1bP1$q\x1b\\',
  '\x9b31m',
  '\x9d0;x\x9c',
  '\u202e',
  '\u202a',
  '\u2066',
  '\u2069',
  '\u200f',
  '\r',
  '\n',
  '\t',
  '\x00',
  '\x07',
  '\x7f',
  '\x85',
  '\u2028',
];

const hostileString = fc.oneof(
  fc.string({ unit: fc.oneof(fc.constantFrom(...HOSTILE_TEXT), fc.constantFrom('a', 'Z', '1', ' ', 'é', '中', '/')) }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom('1h', '15min', 'BTC/USD', 'win', 'loss', 'long', 'short', 'mature', ''),
);

/** A key of moderate length; the 20,000-character key is one of the hand-written cases. */
const hostileKey = fc.oneof(hostileString, fc.constant('k'.repeat(300)), fc.constantFrom('toString', '__proto__', '0'));

function nest(levels: number, inner: unknown, asObject: boolean): unknown {
  let value = inner;
  for (let i = 0; i < levels; i++) value = asObject ? { n: value } : [value];
  return value;
}

const hostileNumber = fc.oneof(
  fc.constantFrom(1e20, -1e20, 1e300, -1, 0, -0, 0.5, 2 ** 53 + 2, 253_402_300_800, 1_700_000_000, 4_100_000_000),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: hostileNumber },
  { weight: 3, arbitrary: hostileString },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, [], {}, { toString: 1 }, { valueOf: {} }, [null]) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.integer({ min: 1, max: 90 }), fc.boolean())
      .map(([levels, asObject]) => nest(levels, 1, asObject)),
  },
  {
    weight: 1,
    arbitrary: fc.array(fc.dictionary(hostileKey, fc.oneof(hostileNumber, hostileString), { maxKeys: 4 }), {
      maxLength: 4,
    }),
  },
);

// --- mutations -----------------------------------------------------------------------------

/** Where to act in a body: a walk down by child indices, taken modulo each container's size. */
type Mutation =
  | { kind: 'replace'; walk: number[]; value: unknown }
  | { kind: 'add-key'; walk: number[]; key: string; value: unknown }
  | { kind: 'delete'; walk: number[] };

const walk = fc.array(fc.nat(), { maxLength: 6 });
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('replace' as const), walk, value: hostileValue }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('add-key' as const), walk, key: hostileKey, value: hostileValue }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), walk }) },
);

const children = (v: unknown): Array<string | number> =>
  Array.isArray(v) ? v.map((_, i) => i) : v !== null && typeof v === 'object' ? Object.keys(v) : [];

/** Generated values are fast-check's to keep (it shrinks and reuses them): a mutation places a copy. */
function apply(body: unknown, m: Mutation): unknown {
  return place(body, 'value' in m ? { ...m, value: structuredClone(m.value) } : m);
}

function place(body: unknown, m: Mutation): unknown {
  if (m.walk.length === 0 || children(body).length === 0) {
    if (m.kind === 'replace') return m.value;
    if (m.kind === 'add-key' && body !== null && typeof body === 'object' && !Array.isArray(body)) {
      Object.defineProperty(body, m.key, { value: m.value, enumerable: true, writable: true, configurable: true });
    }
    return body;
  }
  const keys = children(body);
  const key = keys[m.walk[0]! % keys.length]!;
  const container = body as Record<string | number, unknown>;
  const rest = { ...m, walk: m.walk.slice(1) };
  if (m.kind === 'delete' && rest.walk.length === 0) {
    if (Array.isArray(container)) container.splice(key as number, 1);
    else delete container[key];
    return body;
  }
  container[key] = place(container[key], rest);
  return body;
}

/** A realistic body with a few hostile changes, or (rarely) any JSON at all. */
export function bodyOf(corpus: unknown[]): fc.Arbitrary<unknown> {
  const mutated = fc
    .tuple(fc.nat(corpus.length - 1), fc.array(mutation, { minLength: 0, maxLength: 4 }))
    .map(([i, mutations]) => mutations.reduce(apply, structuredClone(corpus[i])));
  return fc.oneof({ weight: 9, arbitrary: mutated }, { weight: 1, arbitrary: hostileValue });
}

export interface Case {
  argv: string[];
  body: unknown;
  status: number;
  /** The text to serve, when it is not JSON.stringify(body) (bodies too deep to stringify). */
  raw?: string;
}

export function caseOf(resource: Resource, corpus: unknown[]): fc.Arbitrary<Case> {
  const status =
    resource === 'problem'
      ? fc.constantFrom(...PROBLEM_STATUSES)
      : fc.constant(resource === 'registration' ? 201 : 200);
  return fc.record({ argv: fc.constantFrom(...COMMANDS[resource]), body: bodyOf(corpus), status });
}

// --- the server and the run ----------------------------------------------------------------

export interface BodyServer {
  url: string;
  serve(status: number, raw: string): void;
  close(): Promise<void>;
}

/** One loopback server for a whole property: each run sets what it answers. */
export async function startBodyServer(): Promise<BodyServer> {
  let status = 200;
  let raw = 'null';
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(status, { 'content-type': status < 400 ? 'application/json' : 'application/problem+json' });
      res.end(raw);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    serve(s, r) {
      status = s;
      raw = r;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export async function runCase(server: BodyServer, c: Case, json: boolean, configDir: string): Promise<RunResult> {
  server.serve(c.status, c.raw ?? JSON.stringify(c.body));
  return runCli(json ? [...c.argv, '--json'] : c.argv, {
    now: FIXED_NOW,
    configDir,
    env: { FCAST_BASE_URL: server.url, FCAST_API_KEY: REST_KEY, FCAST_RETRIES: '0' },
  });
}

/** What must never reach a terminal from a table run: controls other than newline, and bidi controls. */
export const FORBIDDEN = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
