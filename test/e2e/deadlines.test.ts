// One deadline for the whole exchange, and Ctrl-C that ends any phase at once: the real
// executable (bin/fcast.js over dist/, built by `npx tsc -p .`) against servers that stall in
// each phase. Times are loose upper bounds for correctness (a hang would take minutes), not
// performance figures.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';

const BIN = fileURLToPath(new URL('../../bin/fcast.js', import.meta.url));
/**
 * The deadline given to fcast, and the slack allowed on a busy machine (2 cores shared by the
 * whole suite). Clocks start when the stall server sees the connection, not at spawn, so a
 * slow Node start-up does not count; a broken deadline hangs for minutes, far beyond these.
 */
const TIMEOUT_S = 1;
const SLACK_MS = 4000;
const INTERRUPT_MS = 3000;

interface Exec {
  code: number | null;
  stderr: string;
}

function fcast(args: string[], env: Record<string, string>, onSpawn?: (child: ChildProcess) => void): Promise<Exec> {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH ?? '', FCAST_CONFIG_DIR: tempDir(), ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d) => (stderr += d));
  onSpawn?.(child);
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
}

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

describe('a write to a stdout that cannot take it', () => {
  /** Runs `fcast demo` against the emulator (a separate process), its stdout given or piped. */
  async function demoWith(stdout: number | 'pipe', args: string[], onSpawn: (child: ChildProcess) => void = () => {}) {
    const mock = spawn(process.execPath, [BIN, 'mock', '--port', '0'], { stdio: ['ignore', 'pipe', 'ignore'] });
    const [chunk] = (await once(mock.stdout!, 'data')) as [Buffer];
    const base = /FCAST_BASE_URL=(\S+)/.exec(chunk.toString())![1]!;
    try {
      const r = spawn(process.execPath, [BIN, 'demo', ...args], {
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

  it('a full disk: one line, no stack, exit 1', async () => {
    const { openSync } = await import('node:fs');
    const r = await demoWith(openSync('/dev/full', 'w'), []);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('fcast: cannot write the output to stdout: no space left on the device\n');
  });

  it('a reader that left (EPIPE, as with head): no message, no stack', async () => {
    // The reader goes away before fcast writes a byte.
    const r = await demoWith('pipe', ['--json'], (child) => child.stdout!.destroy());
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
  });
});
