// Completion scripts for bash, zsh and fish. The shell code lives in real shell files next to
// this one (template.bash, template.zsh, template.fish: one word walker each, readable and
// lintable as they are); this module only fills their two tables, written there as a comment
// line `# @command-table@` or `# @value-lists@`, from the command tree. TAB never waits for
// node, except for symbols, which come from a local cache.
import { readPackageFile } from '../core/package-files.js';
import type { Command } from 'commander';
import type { Shell } from './names.js';
import { type CompletionNode, describeTree, type Values, type Word } from './tree.js';

/** Where `npm run completions` writes each script; a test keeps them equal to the generator's output. */
export const COMPLETION_FILES: Record<Shell, string> = { bash: 'fcast.bash', zsh: '_fcast', fish: 'fcast.fish' };

/** The templates stay in src/, which the package ships; found from the package root, as the bundle moves modules. */
const templatePath = (shell: Shell) => `src/completion/template.${shell}`;

/** The completion script for `shell`, generated from the tree under `root` (the templates name it `fcast`). */
export function completionScript(shell: Shell, root: Command): string {
  const table = tableOf(root);
  const dialect = DIALECTS[shell];
  const fills: Record<string, string[]> = {
    'command-table': table.nodes.flatMap((node) => dialect.branch(node, fieldsOf(node, table.idOf))),
    'value-lists': [...table.lists].flatMap(([id, list]) => dialect.valueList(id, list)),
  };
  return readPackageFile(templatePath(shell)).replace(/^([ \t]*)# @([a-z-]+)@\n/gm, (line, indent, name) => {
    const lines = fills[name as string];
    if (lines === undefined) throw new Error(`template.${shell}: unknown table ${line.trim()}`);
    return lines.map((l) => `${indent}${l}\n`).join('');
  });
}

interface Table {
  nodes: CompletionNode[];
  /** Each distinct fixed list once, by the id the scripts refer to it with. */
  lists: Map<string, readonly Word[]>;
  idOf(values: Values | undefined): string;
}

function tableOf(root: Command): Table {
  const nodes = describeTree(root);
  const lists = new Map<string, readonly Word[]>();
  const ids = new Map<string, string>();
  const idOf = (values: Values | undefined): string => {
    if (values === undefined) return '-';
    if (values === 'symbols') return 'symbols';
    const key = JSON.stringify(values.words);
    let id = ids.get(key);
    if (id === undefined) {
      id = `list${ids.size + 1}`;
      ids.set(key, id);
      lists.set(id, values.words);
    }
    return id;
  };
  // Assign ids in a fixed order so the output is the same on every run.
  for (const node of nodes) {
    for (const o of node.options) idOf(o.values);
    for (const n of node.narrowed ?? []) idOf(n.values);
    for (const a of node.args) idOf(a);
  }
  return { nodes, lists, idOf };
}

/** What every shell's table says about one command path. */
interface Fields {
  valueOptions: string[];
  optionValues: string[];
  args: string[];
}

function fieldsOf(node: CompletionNode, idOf: Table['idOf']): Fields {
  const valueOptions = node.options.filter((o) => o.takesValue).map((o) => o.value);
  // A command's own pairs come first in every script, so a narrowed root option wins over the root's list.
  const optionValues = [
    ...node.options.filter((o) => o.values !== undefined).map((o) => `${o.value}=${idOf(o.values)}`),
    ...(node.narrowed ?? []).map((n) => `${n.option}=${idOf(n.values)}`),
  ];
  const args = node.args.map((a, i) => idOf(a) + (node.variadic && i === node.args.length - 1 ? '...' : ''));
  return { valueOptions, optionValues, args };
}

/** How one shell writes a branch of the command table and a fixed list of values, in lines. */
interface Dialect {
  branch(node: CompletionNode, fields: Fields): string[];
  valueList(id: string, words: readonly Word[]): string[];
}

/** `__fcast_<name>` assignments for the lists that are not empty. */
const assignments = (lists: Record<string, string[]>, assign: (variable: string, words: string[]) => string) =>
  Object.entries(lists)
    .filter(([, words]) => words.length > 0)
    .map(([name, words]) => assign(`__fcast_${name}`, words));

// POSIX shells: a single-quoted word, with embedded quotes closed and reopened.
const sq = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
// fish: single quotes escape only backslash and the quote.
const fq = (text: string) => `'${text.replace(/[\\']/g, '\\$&')}'`;
// zsh's _describe splits `value:description` at the first unescaped colon.
const described = (w: Word) =>
  w.description ? `${w.value.replace(/:/g, '\\:')}:${w.description}` : w.value.replace(/:/g, '\\:');
// fish prints `value<TAB>description`; an unquoted \t between quoted parts is a tab.
const fishEntry = (w: Word) => (w.description ? `${fq(w.value)}\\t${fq(w.description)}` : fq(w.value));
const valuesOf = (words: readonly Word[]) => words.map((w) => w.value);

const DIALECTS: Record<Shell, Dialect> = {
  // Each list is one blank-separated string, split by the walker.
  bash: {
    branch: (node, f) => [
      `${node.labels.map(sq).join('|')})`,
      ...assignments(
        {
          commands: valuesOf(node.commands),
          options: valuesOf(node.options),
          value_options: f.valueOptions,
          option_values: f.optionValues,
          args: f.args,
        },
        (variable, words) => `  ${variable}=${sq(words.join(' '))}`,
      ),
      '  ;;',
    ],
    valueList: (id, words) => [`${id}) __fcast_words+=${sq(` ${valuesOf(words).join(' ')}`)} ;;`],
  },
  zsh: {
    branch: (node, f) => [
      `(${node.labels.map(sq).join('|')})`,
      ...assignments(
        {
          commands: node.commands.map(described),
          command_names: valuesOf(node.commands),
          options: node.options.map(described),
          value_options: f.valueOptions,
          option_values: f.optionValues,
          args: f.args,
        },
        (variable, words) => `  ${variable}=(${words.map(sq).join(' ')})`,
      ),
      '  ;;',
    ],
    valueList: (id, words) => [`(${id}) __fcast_reply+=(${words.map(described).map(sq).join(' ')}) ;;`],
  },
  fish: {
    branch: (node, f) => [
      `case ${node.labels.map(fq).join(' ')}`,
      ...assignments(
        {
          commands: node.commands.map(fishEntry),
          command_names: valuesOf(node.commands).map(fq),
          options: node.options.map(fishEntry),
          value_options: f.valueOptions.map(fq),
          option_values: f.optionValues.map(fq),
          args: f.args.map(fq),
        },
        (variable, words) => `    set -g ${variable} ${words.join(' ')}`,
      ),
    ],
    valueList: (id, words) => [`case ${id}`, `    printf '%s\\n' ${words.map(fishEntry).join(' ')}`],
  },
};
