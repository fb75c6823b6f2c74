// Every sink fcast writes to, fed the keys in several spellings by a hostile server: a server
// of the test's own forwards each request to the emulator (with the emulator's key) and echoes
// the key the request carried, the gateway key and the proxy's password into the fields that
// fcast shows, records or saves (meta.source, meta.tier, meta.disclaimer, a problem's detail,
// the gateway's message), as written, upper-cased, URL-encoded in either case of hex, in base64
// and base64url at each byte alignment, a REST key's hex in groups of 4, and every character as
// its `\u` escape (a string whose value is that text); and it names a forecast's timeframe after
// the REST key (`tf0-mfa_ag_...`), which the journal keys a series by. Every byte of
// stdout, stderr, $GITHUB_STEP_SUMMARY, $GITHUB_OUTPUT, the journal's files and the files of
// --save is then searched for 12 characters in a row of any of those spellings.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunResult, tempDir } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';

const emu = useEmulator();

const GATEWAY_KEY = 'gw/Ke+y=S3cr3t%Tok&n-Zq8';
const PROXY_PASSWORD = 'Pr0xy/Pa55+w0rd';

const base64 = (s: string, prefix: string, url: boolean) =>
  Buffer.from(`${prefix}${s}`).toString(url ? 'base64url' : 'base64');

/** The spellings a hostile server echoes a secret in. */
function spellings(secret: string): string[] {
  // Every character as a \u escape: a string whose value is that text (JSON shows it doubled).
  const escaped = [...secret].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
  const forms = [
    secret,
    secret.toUpperCase(),
    encodeURIComponent(secret),
    encodeURIComponent(secret).toLowerCase(),
    escaped,
    escaped.replaceAll('\\', '\\\\'),
  ];
  for (const prefix of ['', 'a', 'ab']) for (const url of [false, true]) forms.push(base64(secret, prefix, url));
  const hex = secret.split('_ag_')[1];
  if (hex)
    forms.push(
      hex.match(/.{1,4}/g)!.join(' '),
      hex
        .match(/.{1,4}/g)!
        .join('-')
        .toUpperCase(),
    );
  return forms;
}

/** Fails when 12 characters in a row of any spelling (either case) are in `text`. */
function expectNoSpelling(text: string, where: string, secrets: readonly string[]): void {
  const lower = text.toLowerCase();
  for (const secret of secrets)
    for (const form of spellings(secret))
      for (let i = 0; i + 12 <= form.length; i++) {
        const window = form.slice(i, i + 12).toLowerCase();
        expect(lower.includes(window), `${where}: '${form.slice(i, i + 12)}' of '${form}'`).toBe(false);
      }
}

const ECHOED = new Set(['source', 'tier', 'disclaimer', 'detail', 'message', 'title']);

/**
 * The body with every spelling of the secrets appended to the strings that fcast shows or
 * records, and a forecast's timeframe named after the key the request carried (`tf0-mfa_ag_...`):
 * the journal keys its series by it.
 */
function echoed(value: unknown, secrets: readonly string[], sent: string): unknown {
  const body = echo(value, secrets) as { predictions?: Record<string, { tf?: string }> };
  const predictions = body.predictions;
  const first = predictions && Object.values(predictions)[0];
  if (first && sent) {
    const tf = `tf0-${sent}`;
    predictions[tf] = { ...first, tf };
  }
  return body;
}

function echo(value: unknown, secrets: readonly string[], key?: string): unknown {
  if (Array.isArray(value)) return value.map((v) => echo(v, secrets));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, echo(v, secrets, k)]));
  if (typeof value === 'string' && key !== undefined && ECHOED.has(key))
    return `${value} [${secrets.flatMap(spellings).join(' | ')}]`;
  return value;
}

let forwarder: Server;
let url: string;
beforeAll(async () => {
  forwarder = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const sent = String(req.headers.authorization ?? req.headers['x-api-key'] ?? '').replace(/^Bearer /, '');
      const upstream = await fetch(`${emu.server.url}${req.url}`, {
        method: req.method,
        headers: {
          authorization: `Bearer ${emu.server.testKey}`,
          'content-type': String(req.headers['content-type'] ?? 'application/json'),
        },
        body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
      });
      const text = await upstream.text();
      let body = text;
      try {
        body = JSON.stringify(echoed(JSON.parse(text), [sent, GATEWAY_KEY, PROXY_PASSWORD].filter(Boolean), sent));
      } catch {
        // Not JSON: as it came.
      }
      res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => forwarder.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(forwarder.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => forwarder.close(() => resolve())));

describe('every sink, fed every spelling of every secret by a forwarding server', () => {
  it('holds none of them in any byte of stdout, stderr, the summary, the output file, the journal or a saved file', async () => {
    const dir = tempDir();
    const data = join(dir, 'data');
    const summary = join(dir, 'summary.md');
    const output = join(dir, 'output.txt');
    const env = {
      FCAST_BASE_URL: url,
      FCAST_API_KEY: emu.server.testKey,
      FCAST_GATEWAY_KEY: GATEWAY_KEY,
      // Never used (NO_PROXY covers the servers): a password fcast holds all the same.
      HTTPS_PROXY: `http://fcast:${encodeURIComponent(PROXY_PASSWORD)}@proxy.invalid:3128`,
      NO_PROXY: '127.0.0.1',
      FCAST_DATA_DIR: data,
      GITHUB_ACTIONS: 'true',
      GITHUB_STEP_SUMMARY: summary,
      GITHUB_OUTPUT: output,
    };
    const secrets = [emu.server.testKey, GATEWAY_KEY, PROXY_PASSWORD];
    // The sinks, and a command that writes to each: [argv, exit code, a file it writes].
    const runs: Array<[string[], number, string?]> = [
      [['predict', 'BTC/USD', '--record'], 0],
      [['predict', 'BTC/USD', '--record', '--json'], 0],
      [['predict', 'BTC/USD', '--format', 'tsv'], 0],
      [['track-record', '--format', 'csv'], 0],
      [['demo', '--format', 'csv'], 0],
      [['accuracy', '--tf', '1h', '--min-settled', '100000'], 8],
      [['accuracy', '--tf', '1h', '--format', 'markdown', '--min-settled', '100000'], 8],
      [['track-record', '--json', '--save', join(dir, 'baseline.json')], 0, join(dir, 'baseline.json')],
      [['accuracy', '--tf', '1h', '--save', join(dir, 'accuracy.json')], 0, join(dir, 'accuracy.json')],
      [['cmd', 'macro', '--json'], 0],
      [['cmd', 'macro'], 0],
      [['journal', 'report', '--offline', '--min-settled', '100000'], 8],
      [['journal', 'export'], 0],
      [['journal', 'list'], 0],
    ];
    const results: Array<[string, RunResult]> = [];
    for (const [argv, code] of runs) {
      const r = await emu.run(argv, { env });
      expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(code);
      results.push([argv.join(' '), r]);
    }
    // The watch, piped: a table a refresh (the board on a terminal draws on the same redacted stdout).
    const piped = await emu.run(['predict', 'BTC/USD', '--watch', '--count', '1'], { env });
    expect(piped.code, piped.stderr).toBe(0);
    results.push(['the watch, piped', piped]);

    for (const [label, r] of results) {
      expectNoSpelling(r.stdout, `${label}: stdout`, secrets);
      expectNoSpelling(r.stderr, `${label}: stderr`, secrets);
    }
    // The servers did echo them: the masks are there, so the search above searched something.
    expect(results[0]![1].stdout).toContain('mfa_ag_');
    expect(results[0]![1].stdout).toMatch(/\.\.\./);

    const files = [summary, join(dir, 'baseline.json'), join(dir, 'accuracy.json')];
    const journal = join(data, 'journal');
    if (existsSync(journal)) files.push(...readdirSync(journal).map((f) => join(journal, f)));
    expect(files.filter((f) => f.endsWith('.jsonl')).length, `journal files in ${journal}`).toBeGreaterThan(0);
    if (existsSync(output)) files.push(output);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      expect(text.length, file).toBeGreaterThan(0);
      expectNoSpelling(text, file, secrets);
    }
    // The summary holds the echoed fields, masked: the report and its verdict were written.
    expect(readFileSync(summary, 'utf8')).toMatch(/Verdict: failed/);
  });
});
