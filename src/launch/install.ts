// Where a run finds fcast's parts: the package (or a clone), through bin/fcast.js, or the
// standalone executable's assets (executable.ts).
import type { Ctx, Stdio } from '../core/context.js';

/** What src/entry.ts exports: the bundle's entry. */
export interface Entry {
  main(argv: string[], ctx: Ctx): Promise<number>;
  realContext(signal: AbortSignal, stdio?: Stdio, version?: string): Ctx;
  /** From the same module graph as main: its hold is process-wide state. */
  exitWhenFree(exit: () => void): void;
}

export interface Install {
  /** fcast's version. */
  version(): string;
  /** Whether fcast's Node is built in (the standalone executable). */
  builtIn: boolean;
  /** The TAB listing (src/completion/tab.ts), or undefined for main to answer. */
  tab(): { completeSymbols(write: (text: string) => void): void } | undefined;
  /** The root's help as main prints it on a pipe, or undefined for main to answer. */
  help(): Buffer | undefined;
  /** The bundle's entry, loaded. */
  entry(): Entry | Promise<Entry>;
}
