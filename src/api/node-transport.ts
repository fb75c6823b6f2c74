// Direct connections over node:http and node:https. Keep-alive agents let `predict` reuse a
// connection across symbols; close() destroys their sockets rather than waiting on them.
import type { Agent, ClientRequest, IncomingMessage, RequestOptions } from 'node:http';
import { ProvisionalOnly, type Transport, type WireRequest, type WireResponse } from './wire.js';

type RequestFn = (url: URL, options: RequestOptions, callback: (res: IncomingMessage) => void) => ClientRequest;
interface Scheme {
  request: RequestFn;
  agent: Agent;
}

export function nodeTransport(): Transport {
  // node:https (and with it tls and crypto) is loaded only for an https URL.
  const schemes = new Map<string, Promise<Scheme>>();
  const scheme = (protocol: string): Promise<Scheme> => {
    let found = schemes.get(protocol);
    if (!found) {
      // getBuiltinModule, not import(): in the CommonJS bundle, import() of a builtin starts
      // Node's ES module loader for nothing (its cost: docs/decisions/2026-11-23-startup-figures.md).
      const m = protocol === 'https:' ? process.getBuiltinModule('node:https') : process.getBuiltinModule('node:http');
      found = Promise.resolve({ request: m.request as RequestFn, agent: new m.Agent({ keepAlive: true }) });
      schemes.set(protocol, found);
    }
    return found;
  };
  return {
    async send(req: WireRequest): Promise<WireResponse> {
      const { request, agent } = await scheme(req.url.protocol);
      const headers: Record<string, string> = { ...req.headers };
      if (req.body !== undefined) headers['content-length'] = String(Buffer.byteLength(req.body));
      return new Promise((resolve, reject) => {
        const sent = request(req.url, { method: req.method, headers, agent, signal: req.signal }, (res) =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: res }),
        );
        // node:http waits on after a 1xx for the final answer; when none comes, the 1xx is what
        // the server said (a reset or a parse error after it is only its consequence).
        let provisional: number | undefined;
        sent.on('information', (info) => {
          provisional = info.statusCode;
        });
        sent.on('error', (err) => reject(provisional === undefined ? err : new ProvisionalOnly(provisional, err)));
        sent.end(req.body);
      });
    },
    close() {
      for (const found of schemes.values()) void found.then((s) => s.agent.destroy());
    },
  };
}
