// The README's completion install lines, used the way a reader uses them: pasted into an
// interactive bash, zsh or fish on a real terminal (tmux), with a fresh HOME; then a new
// shell, `fcast pre` and TAB, which must give `fcast predict`. Skipped where tmux or the
// shell is not installed.
import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { alive, BIN, tempDir } from '../helpers/cli.js';
import { pasteBlocks, readDoc } from '../helpers/docs.js';

const installed = (tool: string, arg = '--version') => spawnSync(tool, [arg], { stdio: 'ignore' }).status === 0;
const hasTmux = installed('tmux', '-V');

const SHELLS = [
  ['bash', 'bash -i'],
  ['zsh', 'zsh -i'],
  ['fish', 'fish'],
] as const;

const blocks = pasteBlocks(readDoc('README.md'), 'README.md');

/** A terminal 120 x 40 running `command` in tmux, on a server of its own (its socket in a temporary directory). */
class Terminal {
  private readonly socket: string;
  constructor(private readonly dir: string) {
    this.socket = join(dir, 'tmux.sock');
  }

  private tmux(...args: string[]): SpawnSyncReturns<string> {
    // -f /dev/null: none of the machine's tmux configuration; TMUX_TMPDIR: nothing in /tmp.
    return spawnSync('tmux', ['-S', this.socket, '-f', '/dev/null', ...args], {
      encoding: 'utf8',
      env: { ...process.env, TMUX_TMPDIR: this.dir },
    });
  }

  start(command: string, cwd: string): void {
    const r = this.tmux('new-session', '-d', '-x', '120', '-y', '40', '-c', cwd, command);
    if (r.status !== 0) throw new Error(`tmux did not start: ${r.stderr}`);
  }

  /** Pastes `text` as a terminal paste (bracketed, where the shell asked for it), then presses Enter. */
  paste(text: string): void {
    this.tmux('set-buffer', '--', text.replace(/\n+$/, ''));
    this.tmux('paste-buffer', '-p', '-d');
    this.keys('Enter');
  }

  type(text: string): void {
    this.tmux('send-keys', '-l', '--', text);
  }

  keys(...keys: string[]): void {
    this.tmux('send-keys', ...keys);
  }

  screen(): string {
    return this.tmux('capture-pane', '-p', '-J').stdout;
  }

  /** Waits (polling, at most `ms`) until the screen shows what `test` looks for. */
  async waitFor(test: RegExp, ms = 15_000): Promise<string> {
    const deadline = Date.now() + ms;
    let shown = '';
    while (Date.now() < deadline) {
      shown = this.screen();
      if (test.test(shown)) return shown;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`the terminal never showed ${test}; it shows:\n${shown}`);
  }

  /** Runs a command whose output differs from its echo, and waits for that output: the shell is ready. */
  async settle(tag: string): Promise<void> {
    this.type(`printf '%s\\n' ready"-"${tag}`);
    this.keys('Enter');
    await this.waitFor(new RegExp(`^ready-${tag}$`, 'm'));
  }

  /**
   * zsh with no ~/.zshrc first offers, to anyone but root, to write one; a reader presses q
   * (the README says so). Waits a moment for the offer, as the prompt may come instead.
   */
  async dismissNewUserMenu(): Promise<void> {
    const offer = /Type one of the keys in parentheses/;
    const deadline = Date.now() + 2000;
    while (Date.now() < deadline && !offer.test(this.screen())) {
      if (process.getuid?.() === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (offer.test(this.screen())) this.keys('q');
  }

  /** Ends the shell and waits for it to be gone: on its way out it still writes (bash its history). */
  async stop(): Promise<void> {
    const pid = Number(this.tmux('display-message', '-p', '#{pane_pid}').stdout.trim());
    this.tmux('kill-server');
    const deadline = Date.now() + 5000;
    while (pid > 0 && Date.now() < deadline && alive(pid)) await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(!hasTmux)(`completion, installed as the README says${hasTmux ? '' : ' (skipped: no tmux)'}`, () => {
  it.for(SHELLS)('%s: paste the lines, open a new shell, fcast pre TAB gives fcast predict', async (row, test) => {
    const [shell, start] = row;
    if (!installed(shell)) test.skip(`${shell} is not installed`);
    const block = blocks.find((b) => b.name === `completion-${shell}`);
    expect(block, `README.md has a paste block completion-${shell}`).toBeDefined();

    const dir = tempDir(`fcast-tab-${shell}-`);
    const home = join(dir, 'home');
    const bin = join(dir, 'bin');
    spawnSync('mkdir', ['-p', home, bin]);
    writeFileSync(
      join(bin, 'fcast'),
      `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"\n`,
    );
    chmodSync(join(bin, 'fcast'), 0o755);
    // A new user's terminal: this HOME, fcast on the PATH, and nothing else of this process.
    // XDG_RUNTIME_DIR: fish keeps its runtime files there, else in /tmp/fish.$USER.
    const env = `env -i HOME=${home} PATH=${bin}:/usr/local/bin:/usr/bin:/bin TERM=xterm-256color LANG=C.UTF-8 XDG_RUNTIME_DIR=${dir}`;
    const terminal = new Terminal(dir);
    try {
      terminal.start(`${env} ${start}`, home);
      if (shell === 'zsh') await terminal.dismissNewUserMenu();
      await terminal.settle('first');
      terminal.paste(block!.script);
      await terminal.settle('pasted');
      terminal.type(`exec ${start}`);
      terminal.keys('Enter');
      await terminal.settle('new');
      terminal.type('fcast pre');
      terminal.keys('Tab');
      const screen = await terminal.waitFor(/fcast predict/);
      expect(screen).not.toMatch(/command not found|Unknown command|no such file/i);
    } catch (err) {
      // What the terminal showed says more than the assertion alone.
      throw new Error(`${(err as Error).message}\n--- the terminal shows:\n${terminal.screen()}`, { cause: err });
    } finally {
      await terminal.stop();
      // fish writes its generated completions in the background; let it finish before the directory goes.
      rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    }
  });
});
