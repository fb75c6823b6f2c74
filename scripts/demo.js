#!/usr/bin/env node
// `npm run demo`: start the bundled emulator on a free port, run `fcast demo` against it
// (stdio inherited, so a terminal gets colour), stop the emulator, exit with demo's code.
// `npm run demo -- ETH/USD` shows another demo symbol; `npm run demo -- predict BTC/USD` (any
// fcast command first) runs that command instead, with the emulator's test key, so a clone
// can try every command before anything is installed or configured.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const fcast = fileURLToPath(new URL('../bin/fcast.js', import.meta.url));
const extra = process.argv.slice(2);
const COMMANDS = ['discover', 'demo', 'predict', 'symbols', 'track-record', 'accuracy', 'verify', 'cmd', 'doctor'];
const argv = COMMANDS.includes(extra[0] ?? '') ? extra : ['demo', ...extra];

// The emulator's own notices ("serving ... Ctrl-C to stop") would only confuse here; they
// are shown if it fails to start.
const mock = spawn(process.execPath, [fcast, 'mock', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
let mockErr = '';
mock.stderr.setEncoding('utf8').on('data', (chunk) => (mockErr += chunk));
const env = await new Promise((resolve, reject) => {
  let text = '';
  mock.stdout.setEncoding('utf8');
  mock.stdout.on('data', (chunk) => {
    text += chunk;
    const url = /^(?:export )?FCAST_BASE_URL=(\S+)$/m.exec(text);
    const key = /^(?:export )?FCAST_API_KEY=(\S+)$/m.exec(text);
    if (url && key) resolve({ FCAST_BASE_URL: url[1], FCAST_API_KEY: key[1] });
  });
  mock.once('exit', (code) => reject(new Error(`the emulator stopped before it was ready (exit ${code})\n${mockErr}`)));
}).catch((err) => {
  console.error(`npm run demo: ${err.message}`);
  process.exit(1);
});

const demo = spawn(process.execPath, [fcast, ...argv], { stdio: 'inherit', env: { ...process.env, ...env } });
const [code] = await once(demo, 'exit');
mock.kill('SIGTERM');
await once(mock, 'exit');
process.exitCode = code ?? 1;
