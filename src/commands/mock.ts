import type { Command } from 'commander';
import { action, examples, type App } from '../cli/command.js';
import { UsageError } from '../core/errors.js';
import { parseWholeNumber } from '../cli/input.js';

interface MockFlags {
  port: string;
  host: string;
  seed?: string;
  fault: string[];
  printEnv?: boolean;
}

const collect = (value: string, previous: string[]) => [...previous, value];

export function register(program: Command, app: App): void {
  program
    .command('mock')
    .summary('serve the bundled emulator of the whole API on loopback')
    .description(
      'An offline emulator of the Market Forecast Agent API, REST and gateway, for trying fcast and testing scripts.\n' +
        'Deterministic for a given --seed and clock. Faults can be switched on per run (--fault) or while it runs\n' +
        '(POST /__mock/faults with a JSON array). Stops cleanly on Ctrl-C or SIGTERM.',
    )
    .option('--port <n>', 'port to listen on (0 picks a free one)', '0')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--print-env', 'print only the export lines, then release stdout (for eval; see the examples)')
    .option('--seed <text>', "seed of the emulated data (default: the emulator's own, fcast-mock)")
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
      ),
    )
    .action(
      action(app, async (run, opts: MockFlags) => {
        const port = parseWholeNumber(opts.port, '--port');
        if (port > 65535) throw new UsageError(`--port must be 0 to 65535, got ${port}`);
        const { startMock, parseFault } = await import('../mock/index.js');
        const faults = opts.fault.map((spec) => {
          try {
            return parseFault(spec);
          } catch (err) {
            throw new UsageError(`--fault ${spec}: ${(err as Error).message}`);
          }
        });
        // The emulator stops cleanly by itself on Ctrl-C or SIGTERM (below), so it is not cut short.
        run.holdInterrupts();
        const server = await startMock({
          port,
          host: opts.host,
          seed: opts.seed,
          faults,
          quiet: opts.printEnv === true,
        });
        // stdout: lines to paste into another shell (or `eval`); stderr: the prose.
        // The emulator's test key is worthless outside it, and these lines exist to hand it over.
        run.secrets.reveal(server.testKey, () =>
          run.out.data(`export FCAST_BASE_URL=${server.url}\nexport FCAST_API_KEY=${server.testKey}`),
        );
        if (opts.printEnv) {
          // `$(...)` returns once stdout closes; the emulator keeps serving in the background.
          await run.ctx.io.releaseStdout?.();
        } else {
          run.out.note(
            `fcast mock: serving the emulated API at ${server.url} (gateway key with market.read only: ${server.limitedGatewayKey}); Ctrl-C to stop`,
          );
        }
        await new Promise<void>((resolve) => {
          const stop = () => resolve();
          if (run.ctx.signal.aborted) return resolve();
          run.ctx.signal.addEventListener('abort', stop, { once: true });
        });
        await server.close();
        if (!opts.printEnv) run.out.note('fcast mock: stopped');
      }),
    );
}
