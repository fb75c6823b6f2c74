// `fcast completion <shell>`: the TAB-completion script, generated from the command tree.
import { defineCommand } from '../cmdutil/define.js';
import { SHELLS, type Shell } from '../completion/names.js';

export default defineCommand({
  name: 'completion',
  summary: 'the TAB-completion script for bash, zsh or fish',
  description: [
    'Prints a completion script for commands, subcommands, flags and the values fcast knows: demo symbols, timeframes, maturity levels, gateway commands, config keys. ' +
      "After 'fcast predict' (and --symbol, and gateway symbols) it offers the symbols of your plan, from a list that 'fcast symbols' caches in the config directory and that is refreshed in the background at most once a day, so TAB never waits for the network.",
    'The script is generated from the command tree, so it always matches this version of fcast.',
  ].join('\n\n'),
  args: [{ name: '<shell>', help: 'the shell to complete in', choices: SHELLS }],
  flags: {},
  // A shell script is all it gives: --json would print the script where JSON was asked for.
  formats: ['table'],
  notesFirst: true,
  notes: [
    [
      'Install (once; then open a new shell)',
      'bash:',
      '  mkdir -p ~/.local/share/bash-completion/completions',
      '  fcast completion bash > ~/.local/share/bash-completion/completions/fcast',
      "  echo 'source ~/.local/share/bash-completion/completions/fcast' >> ~/.bashrc",
      'zsh (the fpath line goes before any compinit your ~/.zshrc already runs):',
      '  mkdir -p ~/.zfunc',
      '  fcast completion zsh > ~/.zfunc/_fcast',
      "  echo 'fpath=(~/.zfunc $fpath); autoload -Uz compinit; compinit' >> ~/.zshrc",
      'fish:',
      '  mkdir -p ~/.config/fish/completions',
      '  fcast completion fish > ~/.config/fish/completions/fcast.fish',
      "zsh still offers an old list (or nothing) after an upgrade? compinit keeps what it found in ~/.zcompdump: remove it (find ~ -maxdepth 1 -name '.zcompdump*' -delete) and open a new shell.",
    ],
  ],
  examples: [
    ['source <(fcast completion bash)', 'TAB completion in this bash session only'],
    ['fcast completion zsh > ~/.zfunc/_fcast', 'refresh the zsh script after an upgrade'],
  ],
  run: async (run, _flags, shell: Shell) => {
    const { completionScript } = await import('../completion/generate.js');
    let root = run.command;
    while (root.parent) root = root.parent;
    run.out.data(completionScript(shell, root));
  },
});
