// Gateway failures, told in the gateway's terms: which scope a command needs, which key was
// sent. The exit code stays the one the status decided; the hint comes from the one table.
import { type SentKey, withContextHint } from '../api/response-errors.js';
import type { GatewayCommand } from '../domain.js';

export type { SentKey };

export function explainGatewayError(err: unknown, command: GatewayCommand, key: SentKey | undefined): unknown {
  return withContextHint(err, { gateway: { command: command.name, scope: command.scope, key } });
}
