// What a tool's run gets: its arguments, the context, the settings, a connection this call's
// cancellation aborts, and progress notifications. Its own module, so that the tools and the
// readers they load (local.ts) both name it without importing each other.
import type { Connection } from '../api/endpoints.js';
import type { GlobalFlags, Settings } from '../config/settings.js';
import type { Ctx } from '../core/context.js';

export interface ToolCall {
  args: Record<string, unknown>;
  ctx: Ctx;
  flags: GlobalFlags;
  /** flag > env > config file > default; exit-3 errors (no base URL, no key) become isError results. */
  settings(): Settings;
  /** A connection whose requests this call's cancellation aborts. */
  connect(): Connection;
  /** A progress notification, when the client asked for them (`_meta.progressToken`). */
  progress(done: number, total?: number, message?: string): void;
}
