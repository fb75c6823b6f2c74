// A registration whose save fails after the key was issued: a server that answers with a
// genuine key from the emulator and, as the request arrives, stores another key in the very
// config file fcast checked a moment before (what another process could do).
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

export interface RacingRegistration {
  /** The base URL to register against. */
  url: string;
  /** The key the answer carries. */
  issued: string;
  close(): Promise<void>;
}

export async function racingRegistration(
  emulatorUrl: string,
  email: string,
  configDir: string,
  otherKey: string,
): Promise<RacingRegistration> {
  const answer = await fetch(`${emulatorUrl}/api/agent/v1/register.php`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email }),
  });
  const body = await answer.text();
  const server = createServer((_req, res) => {
    writeFileSync(join(configDir, 'config.json'), JSON.stringify({ 'api-key': otherKey }), { mode: 0o600 });
    res.writeHead(201, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    issued: (JSON.parse(body) as { api_key: string }).api_key,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
