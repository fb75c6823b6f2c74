import type { Command } from 'commander';
import { action, examples, type App } from '../cli/command.js';
import { UsageError } from '../core/errors.js';
import { closest, parseWholeNumber } from '../cli/input.js';
import { parseDecimal } from '../core/values.js';

interface MockFlags {
  port: string;
  host: string;
  seed?: string;
  fault: string[];
  printEnv?: boolean;
  clock?: string;
  speed?: string;
}

const collect = (value: string, previous: string[]) => [...previous, value];

export function register(program: Command, app: App): void {
  program
    .command('mock')
    .summary('serve an emulator of the whole API on loopback')
    .description(
      'An offline emulator of the Market Forecast Agent API, REST and gateway, for trying fcast and testing scripts.\n' +
        'Deterministic for a given --seed and clock. Faults can be switched on per run (--fault) or while it runs ' +
        '(POST /__mock/faults with a JSON array). Stops cleanly on Ctrl-C or SIGTERM.',
    )
    .option('--port <n>', 'port to listen on (0 picks a free one)', '0')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--print-env', 'print only the export lines, then release stdout (for eval; see the examples)')
    .option('--seed <text>', "seed of the emulated data (default: the emulator's own, fcast-mock)")
    .option(
      '--clock <time>',
      'start the emulated clock at this time: ISO 8601 (UTC unless a zone is given) or epoch seconds',
    )
    .option('--speed <n>', 'run the emulated clock n times as fast as real time (default 1; 0 stops it)')
    .option(
      '--fault <spec>',
      'inject a fault, repeatable: 429 | 503 | slow | html | reset | truncate | huge | shrink (the track record loses settlements), with options ' +
        'like 429,times=2,retry-after=3 or slow,delay=1500 or reset,path=demo.php',
      collect,
      [],
    )
    .addHelpText(
      'after',
      examples(
        ['fcast mock', 'serve on a free port; prints export lines for FCAST_BASE_URL and a test key'],
        ['eval "$(fcast mock --print-env &)"', 'serve in the background and set both in this shell'],
        ['fcast mock --port 8787 --fault 429,times=1,retry-after=2', 'the first request is rate limited'],
        ['fcast mock --speed 60', 'an emulated minute every second: forecasts renew, settle'],
        ['fcast mock --clock 2026-01-05T09:00Z --speed 0', 'a stopped clock, for reproducible bodies'],
      ),
    )
    .action(
      action(
        app,
        async (run, opts: MockFlags) => {
          const port = parseWholeNumber(opts.port, '--port');
          if (port > 65535) throw new UsageError(`--port must be 0 to 65535, got ${port}`);
          const { startMock, parseFault, parseInstant, MAX_SPEED, FAULT_KINDS } = await import('../mock/index.js');
          const clock = parseClock(opts, parseInstant, MAX_SPEED);
          const faults = opts.fault.map((spec) => {
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
          const server = await startMock({
            port,
            host: opts.host,
            seed: opts.seed,
            faults,
            clock,
            quiet: opts.printEnv === true,
            log: (line) => run.ctx.io.stderr.write(line),
          });
          // stdout: lines to paste into another shell (or `eval`); stderr: the prose.
          // The emulator's test key is worthless outside it, and these lines exist to hand it over.
          // In the background (`eval "$(fcast mock --print-env &)"`) the shell has no job to stop:
          // the emulator's pid is one more line, so `kill "$FCAST_MOCK_PID"` ends it.
          const pid = opts.printEnv ? `\nexport FCAST_MOCK_PID=${process.pid}` : '';
          run.secrets.reveal(server.testKey, () =>
            run.out.data(`export FCAST_BASE_URL=${server.url}\nexport FCAST_API_KEY=${server.testKey}${pid}`),
          );
          if (opts.printEnv) {
            // `$(...)` returns once stdout closes; the emulator keeps serving in the background.
            await run.ctx.io.releaseStdout?.();
          } else {
            run.out.note(`fcast mock: serving the emulated API at ${server.url}; Ctrl-C to stop`);
            run.out.note('fcast mock: FCAST_API_KEY above is the test key (every endpoint and scope)');
            // The emulator's own worthless key, shown whole as the test key is: it exists to be tried.
            run.secrets.reveal(server.limitedGatewayKey, () =>
              run.out.note(
                `fcast mock: to try a 403, this gateway key has scope market.read only:\n  FCAST_GATEWAY_KEY=${server.limitedGatewayKey}`,
              ),
            );
            if (clock.start !== undefined || clock.speed !== undefined) {
              const speed = server.clock.speed;
              const pace = speed === 1 ? 'real time' : speed === 0 ? 'stopped' : `${speed}x real time`;
              run.out.note(`fcast mock: emulated clock at ${new Date(server.clock.now()).toISOString()}, ${pace}`);
            }
          }
          await new Promise<void>((resolve) => {
            const stop = () => resolve();
            if (run.ctx.signal.aborted) return resolve();
            run.ctx.signal.addEventListener('abort', stop, { once: true });
          });
          await server.close();
          if (!opts.printEnv) run.out.note('fcast mock: stopped');
        },
        // Export lines are all it prints on stdout: --json would get them where JSON was asked for.
        { formats: ['table'] },
      ),
    );
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
