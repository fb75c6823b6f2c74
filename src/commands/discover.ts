// `fcast discover`: what the service says about itself (no key).
import { defineCommand } from '../cmdutil/define.js';

export default defineCommand({
  name: 'discover',
  summary: "the service's live routes, tiers and MCP endpoint",
  description:
    'What the service says about itself (GET /api/agent/v1/): routes, tiers, the MCP endpoint. No key needed.',
  flags: {},
  formats: ['table', 'json', 'markdown'],
  examples: [
    ['fcast discover', 'readable summary'],
    ['fcast discover --json | jq .', 'the whole document'],
  ],
  run: async (run) => {
    const conn = await run.connect();
    const { fetchDiscovery, requests } = await import('../api/endpoints.js');
    if (run.flags.dryRun) return run.dryRun(requests.discovery());
    const res = await fetchDiscovery(conn);
    if (run.flags.json) return run.out.rawJson(res.raw);
    const { renderDocument } = await import('../output/document.js');
    run.out.data(renderDocument(run.out, res.body, run.nowSeconds()));
  },
});
