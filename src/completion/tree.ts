// What TAB can offer at each command path, read from the command tree itself: a command,
// flag or `.choices()` added anywhere reaches the completion scripts without touching this file.
import type { Argument, Command, Option } from 'commander';
import {
  ACCURACY_TIMEFRAMES,
  API_METHODS,
  API_PATHS,
  DEMO_SYMBOLS,
  GATEWAY_COMMANDS,
  MATURITY_LEVELS,
  OUTPUT_FORMATS,
} from '../core/domain.js';
import { DIRECTORY_KEYS } from '../config/directories.js';
import { CONFIG_KEYS } from '../config/settings.js';
import { HELP_TOPICS } from '../cmdutil/help-topics.js';

export interface Word {
  value: string;
  description?: string;
}

/** A fixed list, or the symbols cached from `symbols.php`, read when TAB is pressed. */
export type Values = { readonly words: readonly Word[] } | 'symbols';

const words = (values: readonly string[]): Values => ({ words: values.map((value) => ({ value })) });

// The contract's enums that the tree cannot tell: their commands check them with parsers
// (for exit 2 and a message naming the allowed values) rather than commander's choices.
// Keyed by name, so an entry whose command or flag is gone simply never matches.
const OPTION_VALUES: Record<string, Values> = {
  '--tf': words(ACCURACY_TIMEFRAMES),
  '--min-maturity': words(MATURITY_LEVELS),
  '--symbol': 'symbols',
  '--format': words(OUTPUT_FORMATS),
  '--method': words(API_METHODS),
};

/**
 * By command path: the values of its positional arguments, in order. A command whose last
 * argument is variadic (`cmd analyze [args...]`) may be described further than it declares.
 */
const ARGUMENT_VALUES: Record<string, ReadonlyArray<Values | undefined>> = {
  demo: [words(DEMO_SYMBOLS)],
  predict: ['symbols'],
  api: [words(API_PATHS)],
  ...Object.fromEntries(
    GATEWAY_COMMANDS.map((c) => [`cmd ${c.name}`, c.args.map((a) => (a.kind === 'symbol' ? 'symbols' : undefined))]),
  ),
  'config get': [words([...CONFIG_KEYS, ...DIRECTORY_KEYS])],
  'config set': [words(CONFIG_KEYS)],
  'config unset': [words(CONFIG_KEYS)],
};

export interface CompletionOption extends Word {
  takesValue: boolean;
  values?: Values;
}

export interface CompletionNode {
  /** The paths this command answers to, aliases included: `config list`; '' for the root. */
  labels: string[];
  commands: Word[];
  /** Own options, one entry per spelling; the root's apply everywhere and are not repeated. */
  options: CompletionOption[];
  /** Values of the positional arguments in order; the last repeats when `variadic`. */
  args: Array<Values | undefined>;
  variadic: boolean;
  /** Root options whose values this command narrows: `--format`, to the formats it gives. */
  narrowed?: Array<{ option: string; values: Values }>;
}

/** Every visible command of the tree, root first, parents before children. */
export function describeTree(root: Command): CompletionNode[] {
  const nodes: CompletionNode[] = [];
  const rootOptionNames = new Set<string>();
  const visit = (cmd: Command, labels: string[], path: string, isRoot: boolean) => {
    const help = cmd.createHelp();
    const children = help.visibleCommands(cmd);
    const options = help.visibleOptions(cmd).flatMap((opt) => optionEntries(opt));
    if (isRoot) for (const o of options) rootOptionNames.add(o.value);
    // Commander's own help command, or the root's (program.ts), which also takes the help topics.
    const implicitHelp = (sub: Command) => sub.name() === 'help';
    const siblingNames = children.filter((c) => !implicitHelp(c)).map((c) => c.name());
    const siblings = words(isRoot ? [...siblingNames, ...Object.keys(HELP_TOPICS)] : siblingNames);
    nodes.push({
      labels,
      commands: children.flatMap((sub) =>
        [sub.name(), ...sub.aliases()].map((value) => ({ value, description: summaryOf(sub) })),
      ),
      options: isRoot ? options : options.filter((o) => !rootOptionNames.has(o.value)),
      ...argumentsOf(cmd, ARGUMENT_VALUES[path] ?? []),
      ...narrowedFormats(cmd, isRoot || children.length > 0),
    });
    for (const sub of children) {
      const names = [sub.name(), ...sub.aliases()];
      const subLabels = labels.flatMap((label) => names.map((name) => (label ? `${label} ${name}` : name)));
      const subPath = path ? `${path} ${sub.name()}` : sub.name();
      if (implicitHelp(sub)) {
        nodes.push({ labels: subLabels, commands: [], options: [], args: [siblings], variadic: false });
        continue;
      }
      visit(sub, subLabels, subPath, false);
    }
  };
  visit(root, [''], '', true);
  return nodes;
}

/**
 * A command that runs gives only some formats (cli/program.ts's commands carry them, as their
 * help lists them): TAB after its --format offers those, not every format of some command.
 */
function narrowedFormats(cmd: Command, groups: boolean): Pick<CompletionNode, 'narrowed'> {
  const formats = (cmd as Command & { formats?: readonly string[] }).formats;
  return groups || !formats ? {} : { narrowed: [{ option: '--format', values: words(formats) }] };
}

function optionEntries(opt: Option): CompletionOption[] {
  const takesValue = opt.required || opt.optional;
  const names = [opt.short, opt.long].filter((n): n is string => n !== undefined);
  const values = opt.argChoices
    ? words(opt.argChoices)
    : names.map((n) => OPTION_VALUES[n]).find((v) => v !== undefined);
  return names.map((value) => ({
    value,
    description: oneLine(opt.description),
    takesValue,
    values: takesValue ? values : undefined,
  }));
}

function argumentsOf(
  cmd: Command,
  known: ReadonlyArray<Values | undefined>,
): Pick<CompletionNode, 'args' | 'variadic'> {
  const declared = cmd.registeredArguments;
  const variadic = declared.at(-1)?.variadic === true;
  const describedFurther = variadic && known.length > declared.length;
  const count = describedFurther ? known.length : declared.length;
  const args = Array.from({ length: count }, (_, i) => choicesOf(declared[i]) ?? known[i]);
  return { args, variadic: variadic && !describedFurther };
}

function choicesOf(arg: Argument | undefined): Values | undefined {
  return arg?.argChoices ? words(arg.argChoices) : undefined;
}

function summaryOf(cmd: Command): string {
  return oneLine(cmd.summary() || cmd.description());
}

function oneLine(text: string): string {
  return (text.split('\n')[0] ?? '').replace(/[\x00-\x1f\x7f]/g, ' ').trim();
}
