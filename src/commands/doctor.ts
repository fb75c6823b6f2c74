// `fcast doctor`: every check of the setup, one line each, with how to fix what failed.
import { defineCommand } from '../cmdutil/define.js';
import { helpTable } from '../cmdutil/help.js';

export default defineCommand({
  name: 'doctor',
  summary: 'check the setup and say how to fix each problem',
  description: [
    'Checks what most often goes wrong, one line each, and says how to fix every problem: the Node.js version; ' +
      'the config directory and file (modes 0700 and 0600, and that the file parses); timeout, retries and max-wait; ' +
      'the base URL and where it comes from; where each key comes from and whether it is well formed (masked, never shown whole); ' +
      'proxy variables (credentials masked); whether the service answers (GET /api/agent/v1/, 5 s at most, no retries); ' +
      'and, with an API key, one cheap authenticated call (symbols.php).',
    'Every check runs, whatever failed before it. Marks: ✓ fine, ! worth a look (not a failure), ✗ failed.',
  ].join('\n\n'),
  flags: {},
  notesFirst: true,
  notes: [
    helpTable('Exit codes', [
      ['0', 'no check failed (warnings allowed)'],
      [
        '3',
        'the first failed check is about Node.js, the config files, a setting or a key (a key the service refuses too)',
      ],
      [
        '6',
        'the first failed check is the service: unreachable, timed out, 5xx; other service errors exit with their own code (e.g. 4 for a wrong base path)',
      ],
    ]),
  ],
  examples: [
    ['fcast doctor', 'one line per check, with fixes'],
    ["fcast doctor --json | jq '.checks[] | select(.ok | not)'", 'the failed checks, for scripts'],
  ],
  run: async (run) => {
    const { runDoctor, renderChecks, checksAsJson, exitCodeOf } = await import('../doctor/index.js');
    const checks = await runDoctor({ ctx: run.ctx, flags: run.flags, out: run.out, transport: run.transport });
    if (run.flags.json) run.out.json(checksAsJson(checks));
    else run.out.data(renderChecks(run.out, checks));
    const failed = checks.filter((c) => c.status === 'fail').length;
    if (failed > 0) run.out.note(`fcast: ${failed} of ${checks.length} checks failed`);
    return exitCodeOf(checks);
  },
});
