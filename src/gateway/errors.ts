// Gateway failures, told in the gateway's terms: which scope a command needs, which key was
// sent. The exit code stays the one the status decided (errors.ts); only the hint changes.
import type { GatewayCommand } from '../domain.js';
import { ApiError } from '../errors.js';

const KEY_SETTINGS = "FCAST_GATEWAY_KEY or 'fcast auth login --gateway'";

/** Where the key that was sent came from: the gateway key's source, or the REST key's. */
export interface SentKey {
  kind: 'gateway' | 'rest';
  source: string;
}

export function explainGatewayError(err: unknown, command: GatewayCommand, key: SentKey | undefined): unknown {
  if (!(err instanceof ApiError)) return err;
  const hint = hintFor(err.status, command, key);
  if (hint === undefined) return err;
  return new ApiError(err.details, { exitCode: err.exitCode, message: err.message, hint });
}

function hintFor(status: number, command: GatewayCommand, key: SentKey | undefined): string | undefined {
  const sent =
    key === undefined
      ? 'the key'
      : key.kind === 'gateway'
        ? `the gateway key from ${key.source}`
        : `the REST key from ${key.source} (no gateway key is set)`;
  switch (status) {
    case 400:
      return `see 'fcast cmd ${command.name} --help' for its arguments`;
    case 401:
      return `the gateway refused ${sent}; set a valid gateway key with ${KEY_SETTINGS}`;
    case 403:
      return `'${command.name}' needs a key with the scope ${command.scope} (${sent} lacks it, or its plan does not include it); set one with ${KEY_SETTINGS}`;
    default:
      return undefined;
  }
}
