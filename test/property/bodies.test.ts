// Property tests: any body, on every resource, in table and --json mode, through main()
// against a loopback server. Never exit 1 (an internal error); no control or bidi character
// reaches the terminal from a table run; --json prints the body re-indented or nothing.
// RUNS per resource and mode (see harness.ts); `npm run fuzz` runs 10,000 each.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { escapeInvisibleJson } from '../../src/core/exact-text.js';
import { RENDER_FAILED } from '../../src/output/document.js';
import { tempDir } from '../helpers/cli.js';
import {
  type BodyServer,
  COMMANDS,
  caseOf,
  collectBodies,
  FORBIDDEN,
  RESOURCES,
  FUZZ_PARAMS,
  RUNS,
  runCase,
  startBodyServer,
} from './harness.js';

const corpus = await collectBodies();
// ~20 ms a run, 65 ms for forecast tables; generous, as the machine may be shared.
const TIMEOUT = Math.max(120_000, RUNS * 200);

async function withServer(check: (server: BodyServer, configDir: string) => Promise<void>): Promise<void> {
  const server = await startBodyServer();
  try {
    await check(server, tempDir('fcast-fuzz-'));
  } finally {
    await server.close();
  }
}

describe.each(RESOURCES)('any %s body', (resource) => {
  // So that the properties below test the renderers and not a refusal that comes first (a
  // malformed key, a wrong argument): unchanged bodies succeed on every command.
  it.skipIf(resource === 'problem')('starts from bodies every command shows with exit 0', () =>
    withServer(async (server, configDir) => {
      for (const argv of COMMANDS[resource]) {
        const body = corpus[resource][0];
        const r = await runCase(
          server,
          { argv, body, status: resource === 'registration' ? 201 : 200 },
          false,
          configDir,
        );
        expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(0);
        expect(r.stderr).not.toContain('warning');
      }
    }),
  );

  it(
    'as a table: never exit 1, never a control or bidi character on stdout or stderr',
    () =>
      withServer(async (server, configDir) => {
        await fc.assert(
          fc.asyncProperty(caseOf(resource, corpus[resource]), async (c) => {
            const r = await runCase(server, c, false, configDir);
            expect(r.code, r.stderr).not.toBe(1);
            expect(r.stdout).not.toMatch(FORBIDDEN);
            expect(r.stderr).not.toMatch(FORBIDDEN);
            // A renderer failing on a body its schema accepted means the schema is too loose.
            expect(r.stderr).not.toContain(RENDER_FAILED);
          }),
          FUZZ_PARAMS,
        );
      }),
    TIMEOUT,
  );

  it(
    'with --json: never exit 1; stdout is the body re-indented (controls escaped), or nothing',
    () =>
      withServer(async (server, configDir) => {
        await fc.assert(
          fc.asyncProperty(caseOf(resource, corpus[resource]), async (c) => {
            const r = await runCase(server, c, true, configDir);
            expect(r.code, r.stderr).not.toBe(1);
            if (r.stdout !== '') {
              // The controls JSON.stringify leaves raw (C1, bidi) written \uXXXX: the same value.
              expect(r.stdout).toBe(`${escapeInvisibleJson(JSON.stringify(c.body, null, 2))}\n`);
            }
            if (r.code === 0) expect(r.stdout).not.toBe('');
          }),
          FUZZ_PARAMS,
        );
      }),
    TIMEOUT,
  );
});
