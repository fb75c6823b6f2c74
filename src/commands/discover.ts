import type { Command } from 'commander';
import { action, examples, type App } from '../cmdutil/command.js';

export function register(program: Command, app: App): void {
  program
    .command('discover')
    .summary("the service's live routes, tiers and MCP endpoint")
    .description(
      'What the service says about itself (GET /api/agent/v1/): routes, tiers, the MCP endpoint. No key needed.',
    )
    .addHelpText(
      'after',
      examples(['fcast discover', 'readable summary'], ['fcast discover --json | jq .', 'the whole document']),
    )
    .action(
      action(
        app,
        async (run) => {
          const conn = await run.connect();
          const { fetchDiscovery, requests } = await import('../api/endpoints.js');
          if (run.flags.dryRun) return run.dryRun(requests.discovery());
          const res = await fetchDiscovery(conn);
          if (run.flags.json) return run.out.rawJson(res.raw);
          const { renderDocument } = await import('../output/document.js');
          run.out.data(renderDocument(run.out, res.body, run.nowSeconds()));
        },
        { formats: ['table', 'json', 'markdown'] },
      ),
    );
}
