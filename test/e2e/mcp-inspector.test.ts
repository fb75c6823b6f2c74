// The MCP Inspector's CLI (a devDependency, a client no one here wrote) against `fcast mcp`
// over stdio and the emulator, in both protocol eras: tools/list under --strict (the tool
// schemas' portability check) with no problem reported, and a tool called through it.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { mcpEnv } from '../helpers/mcp.js';

const emu = useEmulator();
const INSPECTOR = fileURLToPath(new URL('../../node_modules/.bin/mcp-inspector', import.meta.url));

function inspect(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = mcpEnv({ FCAST_BASE_URL: emu.server.url });
  const child = spawn(
    INSPECTOR,
    ['--cli', ...args, ...Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]), process.execPath, BIN, 'mcp'],
    {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: env.FCAST_CONFIG_DIR!,
        MCP_CATALOG_PATH: `${env.FCAST_CONFIG_DIR}/catalog.json`,
      },
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

describe.each(['legacy', 'modern'])('the Inspector CLI, --protocol-era %s', (era) => {
  it('lists the ten tools with --strict reporting no problem at all', async () => {
    const r = await inspect(['--protocol-era', era, '--method', 'tools/list', '--strict']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/error|warning/i);
    expect((JSON.parse(r.stdout) as { tools: unknown[] }).tools).toHaveLength(10);
  });

  it('calls a tool and reads its structured result', async () => {
    const r = await inspect(['--protocol-era', era, '--method', 'tools/call', '--tool-name', 'get_track_record']);
    expect(r.code, r.stderr).toBe(0);
    const result = JSON.parse(r.stdout) as { structuredContent: { result: { audit: { agrees: boolean } } } };
    expect(result.structuredContent.result.audit.agrees).toBe(true);
  });
});
