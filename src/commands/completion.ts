import { Argument, Option, type Command } from 'commander';
import { action, examples, type App, type Run } from '../cmdutil/command.js';
import { helpNotes } from '../cmdutil/help.js';
import { COMPLETE_SYMBOLS_COMMAND, SHELLS, type Shell } from '../completion/names.js';
import { configDir } from '../config/directories.js';

export function register(program: Command, app: App): void {
  program
    .command('completion')
    .summary('the TAB-completion script for bash, zsh or fish')
    .description(
      [
        'Prints a completion script for commands, subcommands, flags and the values fcast knows: demo symbols, timeframes, maturity levels, gateway commands, config keys. ' +
          "After 'fcast predict' (and --symbol, and gateway symbols) it offers the symbols of your plan, from a list that 'fcast symbols' caches in the config directory and that is refreshed in the background at most once a day, so TAB never waits for the network.",
        'The script is generated from the command tree, so it always matches this version of fcast.',
      ].join('\n\n'),
    )
    .addArgument(new Argument('<shell>', 'the shell to complete in').choices(SHELLS))
    .addHelpText(
      'after',
      helpNotes(
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
      ),
    )
    .addHelpText(
      'after',
      examples(
        ['source <(fcast completion bash)', 'TAB completion in this bash session only'],
        ['fcast completion zsh > ~/.zfunc/_fcast', 'refresh the zsh script after an upgrade'],
      ),
    )
    .action(
      action(
        app,
        async (run, _opts, shell: Shell) => {
          const { completionScript } = await import('../completion/generate.js');
          run.out.data(completionScript(shell, program));
        },
        // A shell script is all it gives: --json would print the script where JSON was asked for.
        { formats: ['table'] },
      ),
    );

  // Called by the scripts on TAB, so it must answer at once and never complain: stderr is
  // discarded there, and a missing or unreadable cache simply offers nothing.
  program
    .command(COMPLETE_SYMBOLS_COMMAND, { hidden: true })
    .description('print the cached symbols, one per line (used by the completion scripts)')
    .addOption(
      new Option('--refresh', 'fetch symbols.php and rewrite the cache (run in the background by the listing)'),
    )
    .action(
      action(app, async (run, opts: { refresh?: boolean }) => {
        if (opts.refresh) return refreshSymbols(run);
        // bin/fcast.js answers a plain TAB itself (tab.ts); this is the same listing.
        const { listSymbols } = await import('../completion/symbols-cache.js');
        listSymbols({
          configDir: configDir(run.ctx),
          env: run.ctx.env,
          nowMs: run.ctx.clock.now(),
          settings: run.settings,
          write: (text) => run.out.data(text),
        });
      }),
    );
}

async function refreshSymbols(run: Run): Promise<void> {
  const conn = await run.connect();
  const [{ fetchSymbols, requests }, { writeSymbolsCache }] = await Promise.all([
    import('../api/endpoints.js'),
    import('../completion/symbols-cache.js'),
  ]);
  if (run.flags.dryRun) return void (await run.dryRun(requests.symbols()));
  const res = await fetchSymbols(conn);
  // An off-shape list is not worth caching: the old one stays until a good answer comes.
  if (res.wellFormed)
    writeSymbolsCache(
      configDir(run.ctx),
      res.body.symbols.map((s) => s.symbol),
      run.secrets,
    );
}
