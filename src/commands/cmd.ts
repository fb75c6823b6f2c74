// `fcast cmd <command> [args...]`: one read-only command of the gateway, each also a subcommand.
import { Argument, Help, type Command } from 'commander';
import { isDelimited, RECORD_FORMATS, type Run } from '../cmdutil/command.js';
import { defineCommand } from '../cmdutil/define.js';
import { GATEWAY_LISTS } from '../output/formats/gateway-lists.js';
import { GATEWAY_COMMANDS, type GatewayCommand } from '../core/domain.js';
import {
  argumentsUsage,
  describeArgument,
  requireGatewayCommand,
  shapeGatewayArgs,
  userTimeZone,
} from '../cmdutil/gateway-args.js';

const byName = new Map(GATEWAY_COMMANDS.map((c) => [c.name, c]));

// Each gateway command is also a subcommand of `cmd`, so `fcast cmd analyze --help` works and
// `fcast cmd --help` lists them; `cmd`'s own action catches the names that are not on the list.
export default defineCommand({
  name: 'cmd',
  summary: 'run a read-only gateway command (analyze, macro...)',
  description: [
    'Runs one allowlisted, read-only command on the command gateway (POST /api/v1/agent/command) ' +
      "with the gateway key (FCAST_GATEWAY_KEY or 'fcast auth login --gateway'); without one, the REST key is sent.",
    'Arguments are checked before anything is sent: symbols may be typed BTC/USD (sent as BTCUSD), ' +
      "limit and days are whole numbers (sent as JSON numbers), timeframes are like 15m, 1h, 4h, 1d. A '-' leaves out " +
      'an optional argument so that a later one can be given.',
    'The rate-limit and daily-quota state is printed on stderr when little is left (at most a tenth of the limit, or 5 requests), and after each answer with --verbose.',
  ].join('\n\n'),
  usage: '[options] <command> [args...]',
  args: [
    { name: '[command]', help: '' },
    { name: '[args...]', help: '' },
  ],
  flags: {},
  helpCommand: false,
  help: {
    subcommandTerm(this: Help, sub: Command) {
      const spec = byName.get(sub.name());
      return spec
        ? [spec.name, argumentsUsage(spec)].filter(Boolean).join(' ')
        : Help.prototype.subcommandTerm.call(this, sub);
    },
    subcommandDescription(this: Help, sub: Command) {
      const spec = byName.get(sub.name());
      return spec ? `${spec.summary} (scope ${spec.scope})` : Help.prototype.subcommandDescription.call(this, sub);
    },
  },
  examples: [
    ['fcast cmd analyze BTC/USD 1h', 'bias, confidence and drivers'],
    ['fcast cmd opportunities 10', 'the ten best-ranked opportunities'],
    ['fcast cmd calendar EUR/USD Europe/Madrid', 'market hours in your time zone'],
    ['fcast cmd events earnings - 7', 'earnings of the next 7 days, any symbol'],
    ['fcast cmd macro --json | jq .data', 'the envelope, for scripts'],
  ],
  // Reached only by a name that is not on the list (or none), which requireGatewayCommand
  // refuses: the formats are those some gateway command gives, so that `cmd snapshott
  // --format csv` hears of the name, not that cmd gives no CSV.
  formats: RECORD_FORMATS,
  run: async (run, _flags, name: string | undefined, args: string[]) => {
    await runGateway(run, requireGatewayCommand(name), args);
  },
  subcommands: GATEWAY_COMMANDS.map(gatewaySubcommand),
});

function gatewaySubcommand(spec: GatewayCommand) {
  return defineCommand({
    name: spec.name,
    summary: spec.summary,
    description: helpOf(spec),
    usage: ['[options]', argumentsUsage(spec)].filter(Boolean).join(' '),
    args: [{ name: '[args...]', help: '' }],
    flags: {},
    // The arguments are checked by shapeGatewayArgs (one message for every path); help shows them as declared.
    help: { visibleArguments: () => spec.args.map((a) => new Argument(a.name, describeArgument(a))) },
    examples: [
      [spec.example, spec.summary],
      [`${spec.example} --json`, 'the whole envelope, as received'],
    ],
    // A command that answers with a list gives its items as CSV or TSV too; every one, Markdown.
    formats: GATEWAY_LISTS[spec.name] ? RECORD_FORMATS : ['table', 'json', 'markdown'],
    run: (run, _flags, args: string[]) => runGateway(run, spec, args),
  });
}

function helpOf(spec: GatewayCommand): string {
  const lines = [`${spec.summary[0]!.toUpperCase()}${spec.summary.slice(1)}.`, `Scope: ${spec.scope}.`];
  return (spec.args.length === 0 ? [...lines, 'Takes no arguments.'] : lines).join('\n');
}

async function runGateway(run: Run, command: GatewayCommand, raw: string[]): Promise<void> {
  const args = shapeGatewayArgs(command, raw);
  const conn = await run.connect();
  const [{ runGatewayCommand, requests }, { withContextHint }, { describeUsage }] = await Promise.all([
    import('../api/endpoints.js'),
    import('../api/response-errors.js'),
    import('../output/gateway/usage.js'),
  ]);
  if (run.flags.dryRun) return void (await run.dryRun(requests.gateway(command.name, args)));
  let res: Awaited<ReturnType<typeof runGatewayCommand>>;
  try {
    res = await runGatewayCommand(conn, command.name, args);
  } catch (err) {
    // In the gateway's terms: which scope the command needs, which key was sent.
    const key = conn.client.chosenKey('gateway');
    throw withContextHint(err, { gateway: { command: command.name, scope: command.scope, key } });
  }
  const nowSeconds = run.nowSeconds();
  if (run.flags.json) run.out.rawJson(res.raw);
  else if (isDelimited(run.format)) {
    const { gatewayTable, renderRecords } = await import('../output/formats/tables.js');
    run.out.data(renderRecords(run.format, gatewayTable(command.name, res.raw)));
  } else {
    // The views (eight, with their schemas) only for a table.
    const [view, { renderChecked }] = await Promise.all([
      import('../output/gateway/index.js'),
      import('../output/document.js'),
    ]);
    run.out.data(
      renderChecked(run.out, res, nowSeconds, (body) =>
        view.renderGatewayResult(run.out, body, {
          command: command.name,
          zone: userTimeZone(command, args),
          nowSeconds,
        }),
      ),
    );
  }
  // An envelope off its shape has no meta we can trust to describe the usage.
  if (!res.wellFormed) return;
  const usage = describeUsage(res.body.meta, { all: run.flags.verbose === true });
  if (usage) run.out.note(usage);
  if (typeof res.body.meta?.request_id === 'string') run.out.debug(`request id ${res.body.meta.request_id}`);
}
