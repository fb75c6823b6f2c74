// One deadline for the whole exchange, and Ctrl-C that ends any phase at once: the real
// executable (bin/fcast.js over dist/, built by `npx tsc -p .`) against servers that stall in
// each phase. Times are loose upper bounds for correctness (a hang would take minutes), not
// performance figures.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, spawnFcast, tempDir } from '../helpers/cli.js';

/**
 * The deadline given to fcast, and the slack allowed on a busy machine (2 cores shared by the
 * whole suite). Clocks start when the stall server sees the connection, not at spawn, so a
 * slow Node start-up does not count; a broken deadline hangs for minutes, far beyond these.
 */
const TIMEOUT_S = 1;
const SLACK_MS = 4000;
const INTERRUPT_MS = 3000;

const fcast = (args: string[], env: Record<string, string>, onSpawn?: (child: ChildProcess) => void) =>
  spawnFcast(args, env, { onSpawn });

/** A TCP server that accepts and never says a word: no TLS handshake, no headers, no CONNECT reply. */
class Stall {
  readonly sockets = new Set<Socket>();
  private waiting: Array<() => void> = [];
  readonly server: Server = createServer((socket) => {
    this.sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => this.sockets.delete(socket));
    this.onConnection?.(socket);
    for (const wake of this.waiting.splice(0)) wake();
  });
  constructor(private readonly onConnection?: (socket: Socket) => void) {}
  get port(): number {
    return (this.server.address() as { port: number }).port;
  }
  /** Resolves once a client has connected: the request is then in flight. */
  connected(): Promise<void> {
    return new Promise((resolve) => this.waiting.push(resolve));
  }
  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }
  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

let silent: Stall;
let halfBody: Stall;

beforeAll(async () => {
  silent = await new Stall().start();
  // Headers and the first bytes of a body that never ends.
  halfBody = await new Stall((socket) => {
    socket.once('data', () =>
      socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"ok":'),
    );
  }).start();
});

afterAll(async () => {
  await Promise.all([silent.stop(), halfBody.stop()]);
});

describe('--timeout holds in every phase (exit 6)', () => {
  const cases: Array<[phase: string, env: () => Record<string, string>]> = [
    [
      'TLS handshake (https to a port that never speaks)',
      () => ({ FCAST_BASE_URL: `https://127.0.0.1:${silent.port}` }),
    ],
    ['response headers (http, never answered)', () => ({ FCAST_BASE_URL: `http://127.0.0.1:${silent.port}` })],
    ['body (headers, then a body that stops)', () => ({ FCAST_BASE_URL: `http://127.0.0.1:${halfBody.port}` })],
    [
      'proxy CONNECT (a proxy that never answers)',
      () => ({ FCAST_BASE_URL: 'https://forecasts.example', HTTPS_PROXY: `http://127.0.0.1:${silent.port}` }),
    ],
  ];
  it.each(cases)('%s', async (phase, env) => {
    const server = phase.startsWith('body') ? halfBody : silent;
    let connectedAt = 0;
    const r = await fcast(['demo', '--timeout', String(TIMEOUT_S), '--retries', '0'], env(), () => {
      void server.connected().then(() => (connectedAt = Date.now()));
    });
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).toMatch(/timed out: no complete answer within 1s/);
    expect(r.stderr).not.toMatch(/^\s+at /m);
    expect(connectedAt).toBeGreaterThan(0);
    expect(Date.now() - connectedAt).toBeLessThan(TIMEOUT_S * 1000 + SLACK_MS);
  });
});

describe('--timeout holds across redirects', () => {
  it('is one deadline for the request, not one per hop: five slow redirects still end at 1s (exit 6)', async () => {
    let hops = 0;
    const server = createHttpServer((_req, res) => {
      hops++;
      setTimeout(() => res.writeHead(302, { location: `/api/agent/v1/demo.php?hop=${hops}` }).end(), 600);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const started = Date.now();
      const r = await fcast(['demo', '--timeout', String(TIMEOUT_S), '--retries', '0'], {
        FCAST_BASE_URL: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
      });
      expect(r.code, r.stderr).toBe(6);
      expect(r.stderr).toMatch(/timed out: no complete answer within 1s/);
      expect(hops).toBeLessThanOrEqual(2);
      expect(Date.now() - started).toBeLessThan(TIMEOUT_S * 1000 + SLACK_MS);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('the first Ctrl-C or SIGTERM ends any phase at once (exit 130)', () => {
  const cases: Array<[signal: NodeJS.Signals, phase: string, env: () => Record<string, string>]> = [
    ['SIGINT', 'TLS handshake', () => ({ FCAST_BASE_URL: `https://127.0.0.1:${silent.port}` })],
    ['SIGTERM', 'TLS handshake', () => ({ FCAST_BASE_URL: `https://127.0.0.1:${silent.port}` })],
    ['SIGINT', 'response headers', () => ({ FCAST_BASE_URL: `http://127.0.0.1:${silent.port}` })],
    ['SIGINT', 'body', () => ({ FCAST_BASE_URL: `http://127.0.0.1:${halfBody.port}` })],
    [
      'SIGINT',
      'proxy CONNECT',
      () => ({ FCAST_BASE_URL: 'https://forecasts.example', HTTPS_PROXY: `http://127.0.0.1:${silent.port}` }),
    ],
  ];
  it.each(cases)('%s during the %s', async (signal, phase, env) => {
    const server = phase === 'body' ? halfBody : silent;
    let sentAt = 0;
    const r = await fcast(['demo', '--timeout', '120'], env(), (child) => {
      // Signalled once the request is in flight, not after a guessed delay.
      void server.connected().then(() => {
        sentAt = Date.now();
        child.kill(signal);
      });
    });
    expect(r.code, r.stderr).toBe(130);
    expect(Date.now() - sentAt).toBeLessThan(INTERRUPT_MS);
    expect(r.stderr).not.toMatch(/^\s+at /m);
  });
});

/**
 * The two phases no server can stall on purpose. Connect: a listener whose accept queue is
 * full (its process never accepts), so the kernel drops fcast's SYN and retries it for about
 * two minutes. DNS: a resolver that never answers, put in place by a preload (lookups are
 * made inside the process; there is no local resolver to stall).
 */
describe('the phases before the first byte: DNS and TCP connect', () => {
  let blackHole: ChildProcess;
  let blackHolePort = 0;
  const fillers: Socket[] = [];
  const hangDns = join(tempDir(), 'hang-dns.cjs');

  beforeAll(async () => {
    blackHole = spawn(
      process.execPath,
      [
        '-e',
        `const s = require('node:net').createServer();
         s.listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => {
           require('node:fs').writeSync(1, s.address().port + '\\n');
           // Never accepts; gone by itself after two minutes should the suite not end it.
           Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 120000);
           process.exit(0);
         });`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const [chunk] = (await once(blackHole.stdout!, 'data')) as [Buffer];
    blackHolePort = Number(chunk.toString().trim());
    // Fill the accept queue: connections past it get no SYN-ACK and stay pending.
    let pending = 0;
    for (let i = 0; i < 8; i++) {
      const socket = connect(blackHolePort, '127.0.0.1');
      socket.on('error', () => undefined);
      socket.on('connect', () => pending++);
      fillers.push(socket);
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(pending, 'the queue holds a few; the rest must stay unanswered').toBeLessThan(8);
    writeFileSync(
      hangDns,
      "const dns = require('node:dns');\ndns.lookup = () => {};\ndns.promises.lookup = () => new Promise(() => {});\n",
    );
  });

  afterAll(() => {
    for (const socket of fillers) socket.destroy();
    blackHole.kill('SIGKILL');
  });

  const cases: Array<[phase: string, env: () => Record<string, string>]> = [
    ['TCP connect (a SYN never answered)', () => ({ FCAST_BASE_URL: `http://127.0.0.1:${blackHolePort}` })],
    [
      'DNS (a resolver that never answers)',
      () => ({ FCAST_BASE_URL: 'https://forecasts.example', NODE_OPTIONS: `--require ${hangDns}` }),
    ],
  ];

  it.each(cases)('--timeout: exit 6 in the %s', async (_phase, env) => {
    // The request is on its way once --verbose logs it; the clock starts there.
    let sentAt = 0;
    const r = await fcast(['demo', '--timeout', String(TIMEOUT_S), '--retries', '0', '--verbose'], env(), (child) => {
      child.stderr!.on('data', (d: Buffer) => {
        if (sentAt === 0 && d.toString().includes('> GET ')) sentAt = Date.now();
      });
    });
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).toMatch(/timed out: no complete answer within 1s/);
    expect(sentAt).toBeGreaterThan(0);
    expect(Date.now() - sentAt).toBeLessThan(TIMEOUT_S * 1000 + SLACK_MS);
  });

  it.each(cases)('SIGINT: exit 130 at once in the %s', async (_phase, env) => {
    let sentAt = 0;
    let stillWaiting = false;
    const r = await fcast(['demo', '--timeout', '120', '--verbose'], env(), (child) => {
      child.stderr!.on('data', (d: Buffer) => {
        if (sentAt !== 0 || !d.toString().includes('> GET ')) return;
        // Still running half a second after the request left: stalled in this phase, since a
        // lookup or connect that failed would have ended it with another code by then.
        setTimeout(() => {
          stillWaiting = child.exitCode === null && child.signalCode === null;
          sentAt = Date.now();
          child.kill('SIGINT');
        }, 500);
      });
    });
    expect(stillWaiting, r.stderr).toBe(true);
    expect(r.code, r.stderr).toBe(130);
    expect(Date.now() - sentAt).toBeLessThan(INTERRUPT_MS);
  });
});

describe('a write to a stdout that cannot take it', () => {
  /** Runs `fcast ARGS` against the emulator (a separate process), its stdout given or piped. */
  async function runWith(stdout: number | 'pipe', args: string[], onSpawn: (child: ChildProcess) => void = () => {}) {
    const mock = spawn(process.execPath, [BIN, 'mock', '--port', '0'], { stdio: ['ignore', 'pipe', 'ignore'] });
    const [chunk] = (await once(mock.stdout!, 'data')) as [Buffer];
    const base = /FCAST_BASE_URL=(\S+)/.exec(chunk.toString())![1]!;
    try {
      const r = spawn(process.execPath, [BIN, ...args], {
        env: { PATH: process.env.PATH ?? '', FCAST_CONFIG_DIR: tempDir(), FCAST_BASE_URL: base },
        stdio: ['ignore', stdout, 'pipe'],
      });
      onSpawn(r);
      let stderr = '';
      r.stderr!.setEncoding('utf8').on('data', (d) => (stderr += d));
      const [code] = (await once(r, 'close')) as [number];
      return { code, stderr };
    } finally {
      mock.kill('SIGTERM');
      await once(mock, 'exit');
    }
  }

  it('a full disk: one line, no stack, exit 3 (where the output goes needs fixing, as an unwritable config file)', async () => {
    const { openSync } = await import('node:fs');
    const r = await runWith(openSync('/dev/full', 'w'), ['demo']);
    expect(r.code).toBe(3);
    expect(r.stderr).toBe('fcast: cannot write the output to stdout: no space left on the device\n');
  });

  it('a failing gate whose table cannot be written: exit 3, not 8 (what to fix first is the output)', async () => {
    const { openSync } = await import('node:fs');
    for (const format of [[], ['--json']]) {
      const r = await runWith(openSync('/dev/full', 'w'), ['track-record', '--min-win-rate', '0.99', ...format]);
      expect(r.code, r.stderr).toBe(3);
      // The gate's verdict is still said, on stderr, before the write failure.
      expect(r.stderr).toMatch(/^fcast: check failed: \d+ gate failures\n/m);
      expect(r.stderr.endsWith('fcast: cannot write the output to stdout: no space left on the device\n')).toBe(true);
    }
  });

  it('the --version fast path says it in the same line (exit 3)', async () => {
    const { openSync } = await import('node:fs');
    const r = spawnSync(process.execPath, [BIN, '--version'], {
      stdio: ['ignore', openSync('/dev/full', 'w'), 'pipe'],
    });
    expect(r.status).toBe(3);
    expect(r.stderr.toString()).toBe('fcast: cannot write the output to stdout: no space left on the device\n');
  });

  it('a command that writes nothing to stdout keeps its own code on a full disk', async () => {
    const { openSync } = await import('node:fs');
    const r = spawnSync(process.execPath, [BIN, 'demo', 'NOPE'], {
      env: { PATH: process.env.PATH ?? '', FCAST_CONFIG_DIR: tempDir(), FCAST_BASE_URL: 'http://127.0.0.1:9' },
      stdio: ['ignore', openSync('/dev/full', 'w'), 'pipe'],
    });
    expect(r.status).toBe(2);
    expect(r.stderr.toString()).toMatch(/^fcast: .*NOPE/);
  });

  it('stderr on a full disk: a failing command still ends with exit 3, not its own code nor 1', async () => {
    const { openSync } = await import('node:fs');
    // The usage error (exit 2) cannot be said: where the messages go needs fixing first.
    const r = spawnSync(process.execPath, [BIN, 'demo', 'NOPE'], {
      env: { PATH: process.env.PATH ?? '', FCAST_CONFIG_DIR: tempDir(), FCAST_BASE_URL: 'http://127.0.0.1:9' },
      stdio: ['ignore', 'pipe', openSync('/dev/full', 'w')],
    });
    expect(r.status).toBe(3);
    expect(r.stdout.toString()).toBe('');
  });

  it('a reader that left (EPIPE, as with head): no message, no stack', async () => {
    // The reader goes away before fcast writes a byte.
    const r = await runWith('pipe', ['demo', '--json'], (child) => child.stdout!.destroy());
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
  });
});
