// What a watch does when alerts fire (alerts.ts decides when): their words, their NDJSON line,
// the board's list of them, and --on-alert's commands. Server text (a timeframe's name) goes
// through the one sanitiser and the redactor before it is shown or put in a variable; a
// command gets the alert's data in FCAST_ALERT_* variables only, never in its command line.
// Commands are bounded: one at a time per alert, a few at a time in all, a few a minute, each
// within a timeout; a hostile server flipping every refresh gets a warning, not a fork bomb.
import type { ChildProcess } from 'node:child_process';
import type { Ctx } from '../core/context.js';
import { redactText } from '../core/sinks.js';
import { clean } from '../output/sanitize.js';
import { AlertMachine, type Firing, readingsOf, tfShown } from './alerts.js';
import type { RefreshReport } from './refresher.js';
import type { AlertOptions, FiredAlert } from './source.js';
import { KEY_VARIABLES } from '../config/env-secrets.js';

/** Alerts told one by one in a refresh; the rest are counted in one line. */
export const MAX_TOLD_PER_REFRESH = 20;
/** --on-alert commands started in any minute of the watch's clock, at most. */
export const MAX_RUNS_PER_MINUTE = 10;
/** --on-alert commands running at once, at most. */
export const MAX_RUNNING = 4;
/** A command still running after this long is ended (SIGTERM, then SIGKILL 2 s later). */
export const ON_ALERT_TIMEOUT_MS = 30_000;
/** The board lists this many alerts, the newest first. */
const HISTORY = 50;

/** The variables of the user's keys: a command of an alert runs without them (a key never leaves fcast). */
const KEY_NAMES: readonly string[] = Object.values(KEY_VARIABLES);

/** An alert as told: its data, each part clean; `text` is its one-line wording (`BTC/USD 1h p_long 0.71 >= 0.7`). */
export type Told = FiredAlert;

export interface AlertSink {
  /**
   * A warning (a command that failed or was not run): stderr, or the board's status line, where
   * `alert` (the alert it was for) is left out to fit.
   */
  warn(message: string, alert?: string): void;
  /** What a command wrote: the stream's stderr; nothing on the board. */
  output?(text: string): void;
}

export class WatchAlerts {
  private readonly machine = new AlertMachine();
  /** Alerts told, newest last, at most HISTORY. */
  readonly history: Told[] = [];
  /** The alerts of the last refresh. */
  latest: Told[] = [];
  private readonly running = new Map<string, ChildProcess>();
  private readonly exits = new Set<Promise<void>>();
  private readonly starts: number[] = [];
  private skippedUntil = 0;

  constructor(
    private readonly ctx: Ctx,
    private readonly options: AlertOptions,
    private readonly sink: AlertSink,
  ) {}

  /** A refresh's alerts: read from its own answers, told, and their commands started; none from a stale refresh. */
  refreshed(report: RefreshReport): Told[] {
    // A stale refresh (any symbol failed: the board's STALE) fires nothing and changes nothing:
    // what held before it is judged again at the next refresh that is whole.
    if (report.failures.length > 0) {
      this.latest = [];
      return [];
    }
    const now = this.ctx.clock.now();
    const fired = this.machine.step(readingsOf(this.options.rules, report.answers, this.options.timeframes?.()));
    const told = fired.map((f) => tell(f, now));
    this.latest = told;
    this.history.push(...told);
    this.history.splice(0, Math.max(0, this.history.length - HISTORY));
    if (this.options.onAlert !== undefined) {
      told.forEach((t, i) => {
        this.run(t, fired[i]!.key);
      });
    }
    return told;
  }

  /** Waits for the commands running (each within its timeout): before a watch that ends returns. */
  async drain(): Promise<void> {
    while (this.exits.size > 0) await Promise.all([...this.exits]);
  }

  /** Ends the commands still running: a watch ended by q or Ctrl-C leaves none behind. */
  stop(): void {
    for (const child of this.running.values()) kill(child, 'SIGTERM');
  }

  private run(alert: Told, key: string): void {
    const command = this.options.onAlert!;
    const now = this.ctx.clock.now();
    while (this.starts.length > 0 && this.starts[0]! <= now - 60_000) this.starts.shift();
    const why = this.running.has(key)
      ? 'the command for this alert is still running'
      : this.running.size >= MAX_RUNNING
        ? `${MAX_RUNNING} commands are running`
        : this.starts.length >= MAX_RUNS_PER_MINUTE
          ? `${MAX_RUNS_PER_MINUTE} ran in the last minute`
          : undefined;
    if (why !== undefined) {
      // Once a minute at most: a hostile server flipping every refresh gets one line, not thousands.
      if (now >= this.skippedUntil) {
        this.skippedUntil = now + 60_000;
        this.sink.warn(`--on-alert not run: ${why}`, alert.text);
      }
      return;
    }
    this.starts.push(now);
    const { spawn } = process.getBuiltinModule('node:child_process');
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(this.ctx.env)) {
      if (value !== undefined && !KEY_NAMES.includes(name) && !name.startsWith('FCAST_ALERT_')) env[name] = value;
    }
    Object.assign(env, alertVariables(alert));
    let child: ChildProcess;
    try {
      child = spawn(command, {
        shell: true,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
        // Its own process group: a timeout ends the shell and what it started.
        detached: process.platform !== 'win32',
        windowsHide: true,
      });
    } catch (err) {
      this.sink.warn(`--on-alert could not start: ${(err as Error).message}`);
      return;
    }
    this.running.set(key, child);
    const output = (chunk: Buffer) => this.sink.output?.(chunk.toString('utf8'));
    child.stdout?.on('data', output);
    child.stderr?.on('data', output);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      kill(child, 'SIGTERM');
      setTimeout(() => kill(child, 'SIGKILL'), 2000).unref();
    }, ON_ALERT_TIMEOUT_MS);
    const exited = new Promise<void>((resolve) => {
      const done = (problem: string | undefined) => {
        clearTimeout(timer);
        this.running.delete(key);
        this.exits.delete(exited);
        if (problem !== undefined) this.sink.warn(`--on-alert ${problem}`, alert.text);
        resolve();
      };
      child.once('error', (err) => done(`could not run: ${err.message}`));
      child.once('close', (code, signal) =>
        done(
          timedOut
            ? `ended after ${ON_ALERT_TIMEOUT_MS / 1000}s`
            : code === 0
              ? undefined
              : signal
                ? `ended by ${signal}`
                : `exited ${code}`,
        ),
      );
    });
    this.exits.add(exited);
  }
}

function kill(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.exitCode !== null || child.signalCode !== null) return;
  try {
    if (child.pid !== undefined && process.platform !== 'win32') process.kill(-child.pid, signal);
    else child.kill(signal);
  } catch {
    child.kill(signal);
  }
}

/** Text for a terminal, a variable or a line of JSON: no controls, no key. */
const safe = (text: string) => redactText(clean(text));

/** A number as an alert words it: a move to 2 decimals (the table's), any other as sent. */
function numberText(value: number, field: string): string {
  return field === 'move' ? value.toFixed(2) : String(value);
}

export function tell(f: Firing, at: number): Told {
  const rule = f.rule;
  const tf = f.tf === undefined ? '' : safe(tfShown(f.tf));
  const where = `${f.symbol}${tf ? ` ${tf}` : ''}`;
  if (rule.kind === 'changes') {
    const value = safe(tfShown(String(f.value)));
    const previous = safe(tfShown(f.previous ?? ''));
    return {
      at,
      symbol: f.symbol,
      tf,
      field: 'direction',
      value,
      threshold: '',
      op: 'changes',
      rule: rule.text,
      already: false,
      previous,
      text: `${where} direction ${previous} -> ${value}`,
    };
  }
  const field = rule.engine === 'ia3' ? rule.field : `${rule.engine}.${rule.field}`;
  const value = numberText(f.value as number, rule.field);
  const threshold = String(rule.threshold);
  return {
    at,
    symbol: f.symbol,
    tf,
    field,
    value,
    threshold,
    op: rule.op,
    rule: rule.text,
    already: f.already,
    text: `${where} ${field} ${value} ${rule.op} ${threshold}${f.already ? ' (already true)' : ''}`,
  };
}

/** What a command of an alert is given: these variables, and nothing of the alert in its command line. */
export function alertVariables(t: Told): Record<string, string> {
  return {
    FCAST_ALERT_SYMBOL: t.symbol,
    FCAST_ALERT_TF: t.tf,
    FCAST_ALERT_FIELD: t.field,
    FCAST_ALERT_VALUE: t.value,
    FCAST_ALERT_THRESHOLD: t.threshold,
    FCAST_ALERT_TEXT: t.text,
    FCAST_ALERT_RULE: t.rule,
    FCAST_ALERT_TIME: isoSeconds(t.at),
  };
}

/** The NDJSON line of an alert (with --json): one object under `alert`, beside the bodies' lines. */
export function alertJson(t: Told): string {
  return JSON.stringify({
    alert: {
      symbol: t.symbol,
      tf: t.tf === '' ? null : t.tf,
      field: t.field,
      op: t.op,
      value: t.field === 'direction' ? t.value : Number(t.value),
      threshold: t.threshold === '' ? null : Number(t.threshold),
      ...(t.previous !== undefined && { previous: t.previous }),
      already: t.already,
      rule: t.rule,
      text: t.text,
      t: isoSeconds(t.at),
    },
  });
}

export const isoSeconds = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;
