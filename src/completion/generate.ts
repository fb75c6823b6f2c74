// Completion scripts for bash, zsh and fish, generated from the command tree itself: a
// command, flag or `.choices()` added anywhere reaches TAB without touching this file.
// Each script is a static table (per command path: subcommands, options, which options take
// a value, where argument values come from) and a small walker in the shell's own language,
// so TAB never waits for node, except for symbols, which come from a local cache.
import type { Argument, Command, Option } from 'commander';
import { ACCURACY_TIMEFRAMES, DEMO_SYMBOLS, GATEWAY_COMMANDS, MATURITY_LEVELS } from '../domain.js';
import { EVIDENCE_FORMATS } from '../evidence/flags.js';
import { CONFIG_KEYS } from '../settings.js';
import { COMPLETE_SYMBOLS_COMMAND, type Shell } from './names.js';

/** Where `npm run completions` writes each script; a test keeps them equal to the generator's output. */
export const COMPLETION_FILES: Record<Shell, string> = { bash: 'fcast.bash', zsh: '_fcast', fish: 'fcast.fish' };

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
  '--format': words(EVIDENCE_FORMATS),
};

/**
 * By command path: the values of its positional arguments, in order. A command whose last
 * argument is variadic (`cmd analyze [args...]`) may be described further than it declares.
 */
const ARGUMENT_VALUES: Record<string, ReadonlyArray<Values | undefined>> = {
  demo: [words(DEMO_SYMBOLS)],
  predict: ['symbols'],
  ...Object.fromEntries(
    GATEWAY_COMMANDS.map((c) => [`cmd ${c.name}`, c.args.map((a) => (a.kind === 'symbol' ? 'symbols' : undefined))]),
  ),
  'config get': [words(CONFIG_KEYS)],
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
    const implicitHelp = (sub: Command) => sub.name() === 'help' && !cmd.commands.includes(sub);
    const siblings = words(children.filter((c) => !implicitHelp(c)).map((c) => c.name()));
    nodes.push({
      labels,
      commands: children.flatMap((sub) =>
        [sub.name(), ...sub.aliases()].map((value) => ({ value, description: summaryOf(sub) })),
      ),
      options: isRoot ? options : options.filter((o) => !rootOptionNames.has(o.value)),
      ...argumentsOf(cmd, ARGUMENT_VALUES[path] ?? []),
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

/** The completion script for `shell`, generated from the tree under `root`. */
export function completionScript(shell: Shell, root: Command): string {
  const table = tableOf(root);
  if (shell === 'bash') return renderBash(table);
  if (shell === 'zsh') return renderZsh(table);
  return renderFish(table);
}

interface Table {
  program: string;
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
    for (const a of node.args) idOf(a);
  }
  return { program: root.name(), nodes, lists, idOf };
}

/** What every shell's table says about one command path. */
function fieldsOf(node: CompletionNode, idOf: Table['idOf']) {
  const valueOptions = node.options.filter((o) => o.takesValue).map((o) => o.value);
  const optionValues = node.options.filter((o) => o.values !== undefined).map((o) => `${o.value}=${idOf(o.values)}`);
  const args = node.args.map((a, i) => idOf(a) + (node.variadic && i === node.args.length - 1 ? '...' : ''));
  return { valueOptions, optionValues, args };
}

// POSIX shells: a single-quoted word, with embedded quotes closed and reopened.
const sq = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
// fish: single quotes escape only backslash and the quote.
const fq = (text: string) => `'${text.replace(/[\\']/g, '\\$&')}'`;
// zsh's _describe splits `value:description` at the first unescaped colon.
const described = (w: Word) =>
  w.description ? `${w.value.replace(/:/g, '\\:')}:${w.description}` : w.value.replace(/:/g, '\\:');

const HEADER = (shell: Shell, program: string) =>
  `${shell} completion for ${program}, generated from its command tree by \`${program} completion ${shell}\`.`;

function renderBash(t: Table): string {
  const p = t.program;
  const branches = t.nodes.map((node) => {
    const { valueOptions, optionValues, args } = fieldsOf(node, t.idOf);
    const sets = [
      ['commands', node.commands.map((c) => c.value)],
      ['options', node.options.map((o) => o.value)],
      ['value_options', valueOptions],
      ['option_values', optionValues],
      ['args', args],
    ]
      .filter(([, list]) => list!.length > 0)
      .map(([name, list]) => `      __${p}_${name as string}=${sq((list as string[]).join(' '))}`);
    return `    ${node.labels.map(sq).join('|')})${sets.length ? `\n${sets.join('\n')}` : ''}\n      ;;`;
  });
  const lists = [...t.lists].map(
    ([id, list]) => `    ${id}) __${p}_words+=${sq(` ${list.map((w) => w.value).join(' ')}`)} ;;`,
  );
  return `# ${HEADER('bash', p).replace(/\n/g, '\n# ')}
# Load it from ~/.bashrc:  source <(${p} completion bash)
# or save it where bash-completion looks:
#   ${p} completion bash > ~/.local/share/bash-completion/completions/${p}

__${p}_spec() {
  __${p}_commands='' __${p}_options='' __${p}_value_options='' __${p}_option_values='' __${p}_args=''
  case "$1" in
${branches.join('\n')}
  esac
}

__${p}_values() {
  case "$1" in
    symbols)
      # A local cache, refreshed in the background at most once a day: TAB never waits for the network.
      local listed
      listed=$("$__${p}_program" ${COMPLETE_SYMBOLS_COMMAND} 2>/dev/null)
      __${p}_words+=" \${listed//$'\\n'/ }"
      ;;
${lists.join('\n')}
  esac
}

__${p}_option_words() {
  local pair
  for pair in $__${p}_option_values $root_option_values; do
    if [[ \${pair%%=*} == "$1" ]]; then
      __${p}_values "\${pair#*=}"
      return
    fi
  done
}

__${p}_argument_words() {
  local -a sources
  read -r -a sources <<< "$__${p}_args"
  local count=\${#sources[@]} source
  if (( $1 < count )); then
    source=\${sources[$1]}
  elif (( count > 0 )) && [[ \${sources[count-1]} == *... ]]; then
    source=\${sources[count-1]}
  else
    return
  fi
  source=\${source%...}
  [[ $source == - ]] || __${p}_values "$source"
}

_${p}() {
  # The lists below are split on blanks, whatever IFS the user's shell has.
  local IFS=$' \\t\\n'
  local __${p}_program=\${COMP_WORDS[0]} cur=\${COMP_WORDS[COMP_CWORD]} cmdpath='' value_of='' prefix='' ended='' word
  local __${p}_commands __${p}_options __${p}_value_options __${p}_option_values __${p}_args __${p}_words=''
  local position=0 i=1
  __${p}_spec ''
  local root_options=$__${p}_options root_value_options=$__${p}_value_options root_option_values=$__${p}_option_values
  while (( i < COMP_CWORD )); do
    word=\${COMP_WORDS[i]}
    if [[ -z $ended && $word == -?* ]]; then
      if [[ $word == -- ]]; then
        ended=1
      elif [[ " $__${p}_value_options $root_value_options " == *" $word "* ]]; then
        i=$((i + 1))
        # \`--tf=1h\` arrives as three words: bash breaks words at '=' (COMP_WORDBREAKS).
        if [[ \${COMP_WORDS[i]} == = ]] && (( i < COMP_CWORD )); then i=$((i + 1)); fi
        if (( i == COMP_CWORD )); then
          value_of=$word
          [[ $cur == = ]] && cur=''
          break
        fi
      fi
    elif (( position == 0 )) && [[ " $__${p}_commands " == *" $word "* ]]; then
      cmdpath=\${cmdpath:+$cmdpath }$word
      __${p}_spec "$cmdpath"
    else
      position=$((position + 1))
    fi
    i=$((i + 1))
  done
  if [[ -z $value_of && -z $ended && $cur == -?*=* ]]; then
    value_of=\${cur%%=*}
    prefix=$value_of=
    cur=\${cur#*=}
  fi
  if [[ -n $value_of ]]; then
    __${p}_option_words "$value_of"
  elif [[ -z $ended && $cur == -* ]]; then
    __${p}_words="$__${p}_options"
    [[ -n $cmdpath ]] && __${p}_words+=" $root_options"
  else
    (( position == 0 )) && __${p}_words=$__${p}_commands
    __${p}_argument_words "$position"
  fi
  COMPREPLY=()
  local -a candidates
  read -r -a candidates <<< "$__${p}_words"
  for word in "\${candidates[@]}"; do
    [[ $word == "$cur"* ]] && COMPREPLY+=("$prefix$word")
  done
  return 0
}

complete -F _${p} ${p}
`;
}

function renderZsh(t: Table): string {
  const p = t.program;
  const array = (list: string[]) => `(${list.map(sq).join(' ')})`;
  const branches = t.nodes.map((node) => {
    const { valueOptions, optionValues, args } = fieldsOf(node, t.idOf);
    const sets = [
      ['commands', node.commands.map(described)],
      ['command_names', node.commands.map((c) => c.value)],
      ['options', node.options.map(described)],
      ['value_options', valueOptions],
      ['option_values', optionValues],
      ['args', args],
    ]
      .filter(([, list]) => list!.length > 0)
      .map(([name, list]) => `      __${p}_${name as string}=${array(list as string[])}`);
    return `    (${node.labels.map(sq).join('|')})${sets.length ? `\n${sets.join('\n')}` : ''}\n      ;;`;
  });
  const lists = [...t.lists].map(([id, list]) => `    (${id}) __${p}_reply+=${array(list.map(described))} ;;`);
  return `#compdef ${p}
# ${HEADER('zsh', p).replace(/\n/g, '\n# ')}
# Save it on your fpath:  ${p} completion zsh > "\${fpath[1]}/_${p}"   (then start a new shell)
# or, after compinit in ~/.zshrc:  source <(${p} completion zsh)

__${p}_spec() {
  __${p}_commands=() __${p}_command_names=() __${p}_options=() __${p}_value_options=() __${p}_option_values=() __${p}_args=()
  case $1 in
${branches.join('\n')}
  esac
}

__${p}_values() {
  case $1 in
    (symbols)
      # A local cache, refreshed in the background at most once a day: TAB never waits for the network.
      __${p}_reply+=(\${(f)"$($__${p}_program ${COMPLETE_SYMBOLS_COMMAND} 2>/dev/null)"})
      ;;
${lists.join('\n')}
  esac
}

__${p}_option_words() {
  local pair
  for pair in $__${p}_option_values $root_option_values; do
    if [[ \${pair%%=*} == $1 ]]; then
      __${p}_values \${pair#*=}
      return
    fi
  done
}

__${p}_argument_words() {
  integer count=\${#__${p}_args}
  local source
  if (( $1 < count )); then
    source=\${__${p}_args[$1 + 1]}
  elif (( count > 0 )) && [[ \${__${p}_args[count]} == *... ]]; then
    source=\${__${p}_args[count]}
  else
    return
  fi
  source=\${source%...}
  [[ $source == - ]] || __${p}_values $source
}

# Fills __${p}_reply with 'value:description' candidates for the word at CURRENT, and
# __${p}_prefix with what precedes the value in that word (\`--tf=\`).
__${p}_candidates() {
  local __${p}_program=\${words[1]} cur=\${words[CURRENT]} cmdpath= value_of= ended= word
  local -a __${p}_commands __${p}_command_names __${p}_options __${p}_value_options __${p}_option_values __${p}_args
  local -a root_options root_value_options root_option_values
  integer position=0 i=2
  __${p}_reply=()
  __${p}_prefix=
  __${p}_spec ''
  root_options=("\${__${p}_options[@]}")
  root_value_options=("\${__${p}_value_options[@]}")
  root_option_values=("\${__${p}_option_values[@]}")
  while (( i < CURRENT )); do
    word=\${words[i]}
    if [[ -z $ended && $word == -?* ]]; then
      if [[ $word == -- ]]; then
        ended=1
      elif (( \${__${p}_value_options[(Ie)$word]} || \${root_value_options[(Ie)$word]} )); then
        (( i += 1 ))
        if (( i == CURRENT )); then
          value_of=$word
          break
        fi
      fi
    elif (( position == 0 && \${__${p}_command_names[(Ie)$word]} )); then
      cmdpath=\${cmdpath:+$cmdpath }$word
      __${p}_spec $cmdpath
    else
      (( position += 1 ))
    fi
    (( i += 1 ))
  done
  if [[ -z $value_of && -z $ended && $cur == -?*=* ]]; then
    value_of=\${cur%%=*}
    __${p}_prefix=$value_of=
  fi
  if [[ -n $value_of ]]; then
    __${p}_option_words $value_of
  elif [[ -z $ended && $cur == -* ]]; then
    __${p}_reply=("\${__${p}_options[@]}")
    [[ -n $cmdpath ]] && __${p}_reply+=("\${root_options[@]}")
  else
    (( position == 0 )) && __${p}_reply=("\${__${p}_commands[@]}")
    __${p}_argument_words $position
  fi
  return 0
}

_${p}() {
  local -a __${p}_reply
  local __${p}_prefix
  __${p}_candidates
  [[ -n $__${p}_prefix ]] && compset -P '*='
  (( \${#__${p}_reply} )) && _describe -t ${p} '${p}' __${p}_reply
}

if [[ $funcstack[1] == _${p} ]]; then
  _${p} "$@"
else
  compdef _${p} ${p}
fi
`;
}

function renderFish(t: Table): string {
  const p = t.program;
  // fish prints `value<TAB>description`; an unquoted \\t between quoted parts is a tab.
  const entry = (w: Word) => (w.description ? `${fq(w.value)}\\t${fq(w.description)}` : fq(w.value));
  const branches = t.nodes.map((node) => {
    const { valueOptions, optionValues, args } = fieldsOf(node, t.idOf);
    const sets = [
      ['commands', node.commands.map(entry)],
      ['command_names', node.commands.map((c) => fq(c.value))],
      ['options', node.options.map(entry)],
      ['value_options', valueOptions.map(fq)],
      ['option_values', optionValues.map(fq)],
      ['args', args.map(fq)],
    ]
      .filter(([, list]) => list!.length > 0)
      .map(([name, list]) => `            set -g __${p}_${name as string} ${(list as string[]).join(' ')}`);
    return `        case ${node.labels.map(fq).join(' ')}${sets.length ? `\n${sets.join('\n')}` : ''}`;
  });
  const lists = [...t.lists].map(
    ([id, list]) => `        case ${id}\n            printf '%s\\n' ${list.map(entry).join(' ')}`,
  );
  return `# ${HEADER('fish', p).replace(/\n/g, '\n# ')}
# Save it where fish looks:  ${p} completion fish > ~/.config/fish/completions/${p}.fish

function __${p}_spec
    set -g __${p}_commands
    set -g __${p}_command_names
    set -g __${p}_options
    set -g __${p}_value_options
    set -g __${p}_option_values
    set -g __${p}_args
    switch "$argv[1]"
${branches.join('\n')}
    end
end

function __${p}_values
    switch $argv[1]
        case symbols
            # A local cache, refreshed in the background at most once a day: TAB never waits for the network.
            $__${p}_program ${COMPLETE_SYMBOLS_COMMAND} 2>/dev/null
${lists.join('\n')}
    end
end

function __${p}_argument_words
    set -l position $argv[1]
    set -l count (count $__${p}_args)
    set -l source
    if test $position -lt $count
        set source $__${p}_args[(math $position + 1)]
    else if test $count -gt 0; and string match -q -- '*...' $__${p}_args[-1]
        set source $__${p}_args[-1]
    else
        return
    end
    set source (string replace -- '...' '' $source)
    test "$source" = -; or __${p}_values $source
end

function __${p}_complete
    set -l tokens (commandline -opc)
    set -l cur (commandline -ct)
    set -g __${p}_program $tokens[1]
    set -l cmdpath ''
    set -l value_of ''
    set -l ended ''
    set -l prefix ''
    set -l position 0
    __${p}_spec ''
    set -l root_options $__${p}_options
    set -l root_value_options $__${p}_value_options
    set -l root_option_values $__${p}_option_values
    set -l count (count $tokens)
    set -l i 2
    while test $i -le $count
        set -l word $tokens[$i]
        if test -z "$ended"; and string match -q -- '-?*' $word
            if test "$word" = --
                set ended 1
            else if contains -- $word $__${p}_value_options $root_value_options
                set i (math $i + 1)
                if test $i -gt $count
                    set value_of $word
                    break
                end
            end
        else if test $position -eq 0; and contains -- $word $__${p}_command_names
            if test -n "$cmdpath"
                set cmdpath "$cmdpath $word"
            else
                set cmdpath $word
            end
            __${p}_spec $cmdpath
        else
            set position (math $position + 1)
        end
        set i (math $i + 1)
    end
    if test -z "$value_of"; and test -z "$ended"; and string match -q -- '-?*=*' $cur
        set value_of (string split -m 1 = -- $cur)[1]
        set prefix "$value_of="
    end
    if test -n "$value_of"
        for pair in $__${p}_option_values $root_option_values
            set -l parts (string split -m 1 = -- $pair)
            if test "$parts[1]" = "$value_of"
                for value in (__${p}_values $parts[2])
                    printf '%s%s\\n' $prefix $value
                end
                return
            end
        end
    else if test -z "$ended"; and string match -q -- '-*' $cur
        string join \\n -- $__${p}_options
        test -n "$cmdpath"; and string join \\n -- $root_options
    else
        test $position -eq 0; and string join \\n -- $__${p}_commands
        __${p}_argument_words $position
    end
end

complete -c ${p} -f -a '(__${p}_complete)'
`;
}
