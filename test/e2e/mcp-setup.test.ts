// The setup blocks of README.md and docs/mcp.md, started as the assistant would start them:
// each JSON block marked `<!-- mcp-config: NAME -->` is parsed, and its command and arguments
// are spawned (with `fcast` on the PATH) by the SDK's stdio client, which lists the tools and
// calls one. Claude Code's `claude mcp add NAME -- COMMAND ARGS` line is read the same way.
import { chmodSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { BIN, tempDir } from '../helpers/cli.js';
import { fencedBlocks, readDoc } from '../helpers/docs.js';
import { useEmulator } from '../helpers/emulator.js';

const emu = useEmulator();

interface Launch {
  file: string;
  name: string;
  command: string;
  args: string[];
}

/** The server entries of every marked block: `mcpServers` (Claude Desktop, Cursor) or `servers` (VS Code). */
function launches(): Launch[] {
  const found: Launch[] = [];
  for (const file of ['README.md', 'docs/mcp.md']) {
    const text = readDoc(file);
    const lines = text.split('\n');
    for (const block of fencedBlocks(text, file)) {
      const marker = /^<!--\s*mcp-config:\s*(\S+)\s*-->$/.exec(lines[block.line - 2] ?? '');
      if (marker && block.lang === 'json') {
        const config = JSON.parse(block.body) as Record<string, Record<string, { command: string; args?: string[] }>>;
        const servers = config.mcpServers ?? config.servers ?? {};
        for (const entry of Object.values(servers))
          found.push({ file, name: marker[1]!, command: entry.command, args: entry.args ?? [] });
      }
      const add = /^(?:\$ )?claude mcp add \S+ -- (.+)$/m.exec(block.body);
      if (add) {
        const [command = '', ...args] = add[1]!.trim().split(/\s+/);
        found.push({ file, name: 'claude-code', command, args });
      }
    }
  }
  return found;
}

function shimDir(): string {
  const dir = tempDir('fcast-mcp-bin-');
  const shim = join(dir, 'fcast');
  writeFileSync(shim, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"\n`);
  chmodSync(shim, 0o755);
  return dir;
}

describe('the setup blocks', () => {
  const all = launches();

  it('are there for Claude Desktop, Claude Code, VS Code and Cursor, in the docs page and the README', () => {
    expect(new Set(all.filter((l) => l.file === 'docs/mcp.md').map((l) => l.name))).toEqual(
      new Set(['claude-desktop', 'claude-code', 'vscode', 'cursor']),
    );
    expect(all.some((l) => l.file === 'README.md')).toBe(true);
  });

  it.each(all.map((l) => [`${l.file} ${l.name}`, l] as const))(
    '%s starts the server as pasted',
    async (_name, launch) => {
      const transport = new StdioClientTransport({
        command: launch.command,
        args: launch.args,
        env: {
          PATH: [shimDir(), process.env.PATH ?? ''].join(delimiter),
          FCAST_BASE_URL: emu.server.url,
          FCAST_CONFIG_DIR: tempDir(),
          FCAST_DATA_DIR: tempDir(),
        },
        stderr: 'pipe',
      });
      const client = new Client({ name: 'setup-test', version: '1.0.0' });
      await client.connect(transport);
      try {
        const { tools } = await client.listTools();
        expect(tools.map((t) => t.name)).toContain('get_demo_forecasts');
        const r = (await client.callTool({ name: 'get_demo_forecasts', arguments: {} })) as { isError?: boolean };
        expect(r.isError).toBeFalsy();
      } finally {
        await client.close();
      }
    },
  );
});
