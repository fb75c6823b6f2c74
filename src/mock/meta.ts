// The `meta` block every REST body carries. Its links point at the public service, not at the
// emulator, so that a body does not depend on the port the emulator happens to listen on.

export const SERVICE_NAME = 'Market Forecast Agent';
const SERVICE_DOMAIN = 'forecast-agent.example';
export const PUBLIC_ORIGIN = `https://${SERVICE_DOMAIN}`;
export const API_VERSION = '1.1.0';

/** The citation the licence asks for; identical in every response. */
export const ATTRIBUTION = `${SERVICE_NAME} (${SERVICE_DOMAIN})`;

export const LINKS = {
  docs: `${PUBLIC_ORIGIN}/api/agent/v1/openapi.json`,
  quickstart: `${PUBLIC_ORIGIN}/docs/agents/quickstart`,
  track_record: `${PUBLIC_ORIGIN}/api/agent/v1/track-record.php`,
  mcp: `${PUBLIC_ORIGIN}/mcp`,
} as const;

export type Tier = 'demo' | 'free';

export const DELAY_MIN: Record<Tier, number> = { demo: 60, free: 15 };

export interface MetaBody {
  source: string;
  license: string;
  disclaimer: string;
  tier: Tier;
  data_delay_min: number;
  docs: string;
  quickstart: string;
  track_record: string;
  mcp: string;
  server_t: number;
}

export function meta(tier: Tier, serverT: number): MetaBody {
  return {
    source: ATTRIBUTION,
    license: `Free tier data may be reused only with attribution: cite "${ATTRIBUTION}".`,
    disclaimer: 'Probabilistic forecasts for information only; not financial advice. No orders are executed.',
    tier,
    data_delay_min: DELAY_MIN[tier],
    ...LINKS,
    server_t: serverT,
  };
}

// ISO 8601 in UTC without milliseconds, the form every `*_at` field uses: core's, as fcast reads it.
export { isoSeconds } from '../core/instant.js';
