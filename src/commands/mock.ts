// `fcast mock`: the emulator of the whole API (src/mock/), on loopback.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultFlag, defineCommand, type FlagValues, flag, valueFlag } from '../cmdutil/define.js';
import { ConfigError, UsageError } from '../core/errors.js';
import { IrregularFileError } from '../core/own-file.js';
import { shellQuote } from '../core/shell-quote.js';
import { closest, parseWholeNumber } from '../cmdutil/input.js';
import { parseDecimal } from '../core/values.js';
import { ownMockDir } from '../config/data-dir.js';
import { dataDir } from '../config/directories.js';

// No commander defaults for --port and --fault: its help would show `(default: "0")` and `(default: [])`.
const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

const MOCK_FLAGS = {
  port: valueFlag('--port <n>', 'port to listen on (default: 0, a free one)', (raw) => raw),
  host: defaultFlag('--host <host>', 'address to listen on', '127.0.0.1'),
  printEnv: flag('--print-env', 'print only the export lines, then release stdout (for eval; see the examples)'),
  fresh: flag(
    '--fresh',
    'forget the keys registered in earlier runs and the emulated clock (kept in the data directory) and start clean',
  ),
  seed: valueFlag('--seed <text>', "seed of the emulated data (default: the emulator's own, fcast-mock)", (raw) => raw),
  clock: valueFlag(
    '--clock <time>',
    'start the emulated clock at this time: ISO 8601 (UTC unless a zone is given) or epoch seconds (default: where it stood when the emulator last stopped, else now)',
    (raw) => raw,
  ),
  speed: valueFlag(
    '--speed <n>',
    'run the emulated clock n times as fast as real time (default 1; 0 stops it)',
    (raw) => raw,
  ),
  fault: valueFlag(
    '--fault <spec>',
    'inject a fault, repeatable: 429 | 503 | slow | html | reset | truncate | huge | shrink (the track record loses settlements), with options ' +
      'like 429,times=2,retry-after=3 or slow,delay=1500 or reset,path=demo.php',
    collect,
  ),
};

type MockFlags = FlagValues<typeof MOCK_FLAGS>;

export default defineCommand({
  name: 'mock',
  summary: 'serve an emulator of the whole API on loopback',
  description:
    'An offline emulator of the Market Forecast Agent API, REST and gateway, for trying fcast and testing scripts.\n' +
    'Deterministic for a given --seed and clock. Faults can be switched on per run (--fault) or while it runs ' +
    '(POST /__mock/faults with a JSON array). Stops cleanly on Ctrl-C or SIGTERM.\n' +
    'With --print-env it also stops once the shell that started it ends (not under setsid); ' +
    'otherwise a background emulator outlives its shell.',
  flags: MOCK_FLAGS,
  // Export lines are all it prints on stdout: --json would get them where JSON was asked for.
  formats: ['table'],
  examples: [
    ['fcast mock', 'serve on a free port; prints export lines for FCAST_BASE_URL and a test key'],
    ['eval "$(fcast mock --print-env &)"', 'serve in the background and set both in this shell'],
    ['fcast mock --port 8787 --fault 429,times=1,retry-after=2', 'the first request is rate limited'],
    ['fcast mock --speed 60', 'an emulated minute every second: forecasts renew, settle'],
    ['fcast mock --clock 2026-01-05T09:00Z --speed 0', 'a stopped clock, for reproducible bodies'],
  ],
  run: async (run, opts) => {
    const port = parseWholeNumber(opts.port ?? '0', '--port');
    if (port > 65535) throw new UsageError(`--port must be 0 to 65535, got ${port}`);
    const { startMock, parseFault, parseInstant, MAX_SPEED, FAULT_KINDS, forgetKept, readKept } = await import(
      '../mock/index.js'
    );
    const clock = parseClock(opts, parseInstant, MAX_SPEED);
    const faults = (opts.fault ?? []).map((spec) => {
      try {
        return parseFault(spec);
      } catch (err) {
        const kind = spec.split(',')[0] ?? '';
        const near = FAULT_KINDS.includes(kind as never) ? undefined : closest(kind, FAULT_KINDS);
        throw new UsageError(
          near
            ? `--fault ${spec}: no fault '${kind}'; did you mean ${near}? (kinds: ${FAULT_KINDS.join(', ')})`
            : `--fault ${spec}: ${(err as Error).message}`,
        );
      }
    });
    // The emulator stops cleanly by itself on Ctrl-C or SIGTERM (below), so it is not cut short.
    run.holdInterrupts();
    // Started in the background (`eval "$(fcast mock --print-env &)"`), it ends with the
    // shell that started it, as a job would, instead of serving on under PID 1. Only then:
    // `(fcast mock &)`, `setsid`, `nohup` or a CI step's background start are meant to outlive
    // their starter, and a --print-env run under setsid says the same. The shell is found now,
    // while it surely lives: once the export lines are out it may end before the watch begins.
    const starter = opts.printEnv && !detachedOnPurpose() ? startingShell() : undefined;
    // The keys it issues outlive a restart: a key registered against it keeps working.
    const stateFile = join(ownMockDir(dataDir(run.ctx)), 'state.json');
    try {
      if (opts.fresh) forgetKept(stateFile);
      // Read now, so that a link, FIFO or device planted there is refused before serving.
      readKept(stateFile);
    } catch (err) {
      if (err instanceof IrregularFileError) {
        throw new ConfigError(`the emulator's state file ${err.message}`, {
          hint: `remove it (rm -- ${shellQuote(stateFile)}) if you did not put it there, and check who can write its directory`,
        });
      }
      throw err;
    }
    const server = await startMock({
      port,
      host: opts.host,
      seed: opts.seed,
      faults,
      clock,
      quiet: opts.printEnv === true,
      log: (line) => run.ctx.io.stderr.write(line),
      stateFile,
    });
    // stdout: lines to paste into another shell (or `eval`); stderr: the prose.
    // The emulator's test key is worthless outside it, and these lines exist to hand it over.
    // In the background (`eval "$(fcast mock --print-env &)"`) the shell has no job to stop:
    // the emulator's pid is one more line, so `kill "$FCAST_MOCK_PID"` ends it.
    const pid = opts.printEnv ? `\nexport FCAST_MOCK_PID=${process.pid}` : '';
    run.secrets.reveal(server.testKey, () =>
      run.out.data(`export FCAST_BASE_URL=${server.url}\nexport FCAST_API_KEY=${server.testKey}${pid}`),
    );
    // Said in both modes, on stderr: a clock that did not start at now must never surprise.
    const pace = (speed: number) => (speed === 1 ? 'real time' : speed === 0 ? 'stopped' : `${speed}x real time`);
    if (server.resumedClock)
      run.out.note(
        `fcast mock: resumed the emulated clock at ${new Date(server.resumedClock.at).toISOString()}, ${pace(server.clock.speed)}, where it stood when the emulator last stopped (kept in ${stateFile}; --clock sets it, --fresh starts it anew)`,
      );
    if (opts.printEnv) {
      // `$(...)` returns once stdout closes; the emulator keeps serving in the background.
      await run.ctx.io.releaseStdout?.();
    } else {
      run.out.note(`fcast mock: serving the emulated API at ${server.url}; Ctrl-C to stop`);
      run.out.note('fcast mock: FCAST_API_KEY above is the test key (every endpoint and scope)');
      // Before the gateway key's lines, which a script (and the tests) read as the end of the banner.
      if (server.keptKeys > 0) {
        const n = server.keptKeys;
        run.out.note(
          `fcast mock: ${n} key${n === 1 ? '' : 's'} registered in earlier runs still work${n === 1 ? 's' : ''} (kept in ${stateFile}; --fresh forgets them)`,
        );
      }
      // The emulator's own worthless key, shown whole as the test key is: it exists to be tried.
      run.secrets.reveal(server.limitedGatewayKey, () =>
        run.out.note(
          `fcast mock: to try a 403, this gateway key has scope market.read only:\n  FCAST_GATEWAY_KEY=${server.limitedGatewayKey}`,
        ),
      );
      if (!server.resumedClock && (clock.start !== undefined || clock.speed !== undefined)) {
        run.out.note(
          `fcast mock: emulated clock at ${new Date(server.clock.now()).toISOString()}, ${pace(server.clock.speed)}`,
        );
      }
    }
    let orphaned = false;
    await new Promise<void>((resolve) => {
      const stop = () => resolve();
      if (run.ctx.signal.aborted) return resolve();
      run.ctx.signal.addEventListener('abort', stop, { once: true });
      const watch =
        starter === undefined
          ? undefined
          : watchStarter(starter, () => {
              orphaned = true;
              resolve();
            });
      run.ctx.signal.addEventListener('abort', () => clearInterval(watch), { once: true });
    });
    await server.close();
    if (!opts.printEnv) run.out.note(`fcast mock: stopped${orphaned ? ': the shell that started it has ended' : ''}`);
  },
});

/** How often the emulator looks for the shell that started it. */
const STARTER_POLL_MS = 1000;

/**
 * The shell that started this process. It is the leader of this process's group when the
 * process is not its own leader: `$(fcast mock --print-env &)` runs it from a subshell that
 * exits at once, so its parent is no guide, but it stays in the group of the shell that
 * evaluated it. As a job of its own (`fcast mock &`), its group is its own: the parent is the
 * shell. Undefined when neither names a live process other than init.
 */
function startingShell(): number | undefined {
  const group = processGroup();
  const starter = group !== undefined && group !== process.pid ? group : process.ppid;
  return starter > 1 && alive(starter) ? starter : undefined;
}

/**
 * Calls `gone` once `starter` has ended: at once if it already has, then polled every second
 * (a timer that keeps nothing alive).
 */
function watchStarter(starter: number, gone: () => void): NodeJS.Timeout | undefined {
  if (!alive(starter)) {
    gone();
    return undefined;
  }
  const timer = setInterval(() => {
    if (alive(starter)) return;
    clearInterval(timer);
    gone();
  }, STARTER_POLL_MS);
  timer.unref();
  return timer;
}

/**
 * The fields of /proc/self/stat after `pid (comm)`: state, ppid, pgrp, session, ... (comm may
 * hold spaces and parentheses, so they start after the last ')'). Linux only; undefined where
 * /proc is missing.
 */
function procSelfStat(): string[] | undefined {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/**
 * Whether this process was detached on purpose, so outliving its starter is the point: it leads
 * its own session (`setsid`). False where /proc is missing. (`nohup` cannot be told: Node resets
 * an inherited SIG_IGN to SIG_DFL at startup, so SigIgn in /proc/self/status never shows it.)
 */
export function detachedOnPurpose(): boolean {
  return Number(procSelfStat()?.[3]) === process.pid;
}

/** This process's group, from /proc (Linux); undefined elsewhere, where the parent is watched. */
function processGroup(): number | undefined {
  const group = Number(procSelfStat()?.[2]);
  return Number.isInteger(group) && group > 0 ? group : undefined;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, as another user's.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** --clock and --speed, checked before anything listens (exit 2 naming what is allowed). */
function parseClock(
  opts: MockFlags,
  parseInstant: (text: string) => number | undefined,
  maxSpeed: number,
): { start?: number; speed?: number } {
  const clock: { start?: number; speed?: number } = {};
  if (opts.clock !== undefined) {
    clock.start = parseInstant(opts.clock);
    if (clock.start === undefined)
      throw new UsageError(
        `--clock must be an ISO 8601 time like 2026-11-24T19:00Z, or epoch seconds; got '${opts.clock}'`,
        {
          hint: "see 'fcast mock --help'",
        },
      );
  }
  if (opts.speed !== undefined) {
    const speed = parseDecimal(opts.speed, { min: 0, max: maxSpeed });
    if (speed === undefined)
      throw new UsageError(`--speed must be a number from 0 to ${maxSpeed}, got '${opts.speed}'`, {
        hint: "see 'fcast mock --help'",
      });
    clock.speed = speed;
  }
  return clock;
}
