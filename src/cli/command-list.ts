// Written by `npm run completions` from the whole command tree (commandListing in program.ts);
// test/unit/program.test.ts fails when it differs from the tree. What the listings show of
// each top-level command (the root's help, `fcast help`, suggestions for an unknown name),
// so that they load no command module.

export interface CommandListing {
  name: string;
  /** The arguments as help shows them: `<name>`, `[name...]`. */
  args: readonly string[];
  /** Its summary, or its description when it has none (as commander lists it). */
  summary: string;
  aliases: readonly string[];
  hidden: boolean;
}

export const COMMAND_LIST: readonly CommandListing[] = [
  {
    name: 'discover',
    args: [],
    summary: "the service's live routes, tiers and MCP endpoint",
    aliases: [],
    hidden: false,
  },
  {
    name: 'demo',
    args: ['[symbol]'],
    summary: 'keyless forecasts for a demo symbol (60 min delayed)',
    aliases: [],
    hidden: false,
  },
  {
    name: 'register',
    args: [],
    summary: 'get a free API key for an e-mail address, and save it',
    aliases: [],
    hidden: false,
  },
  { name: 'auth', args: [], summary: 'store, show and remove API keys', aliases: [], hidden: false },
  { name: 'config', args: [], summary: 'show and change settings', aliases: [], hidden: false },
  {
    name: 'predict',
    args: ['[symbol...]'],
    summary: 'latest forecasts for symbols (needs a key)',
    aliases: [],
    hidden: false,
  },
  { name: 'symbols', args: [], summary: 'the symbols your key can use (needs a key)', aliases: [], hidden: false },
  {
    name: 'track-record',
    args: [],
    summary: 'the public track record, per timeframe (no key)',
    aliases: [],
    hidden: false,
  },
  {
    name: 'accuracy',
    args: [],
    summary: 'the track record of a symbol or timeframe (no key)',
    aliases: [],
    hidden: false,
  },
  {
    name: 'verify',
    args: ['<id>'],
    summary: 'one expired forecast and how it settled (no key)',
    aliases: [],
    hidden: false,
  },
  {
    name: 'journal',
    args: [],
    summary: 'the forecasts you were shown: settle them, score them, export them',
    aliases: [],
    hidden: false,
  },
  {
    name: 'cmd',
    args: ['[command]', '[args...]'],
    summary: 'run a read-only gateway command (analyze, macro...)',
    aliases: [],
    hidden: false,
  },
  {
    name: 'completion',
    args: ['<shell>'],
    summary: 'the TAB-completion script for bash, zsh or fish',
    aliases: [],
    hidden: false,
  },
  {
    name: '__complete-symbols',
    args: [],
    summary: 'print the cached symbols, one per line (used by the completion scripts)',
    aliases: [],
    hidden: true,
  },
  { name: 'doctor', args: [], summary: 'check the setup and say how to fix each problem', aliases: [], hidden: false },
  { name: 'mock', args: [], summary: 'serve an emulator of the whole API on loopback', aliases: [], hidden: false },
  { name: 'mcp', args: [], summary: 'an MCP server over stdio, for AI assistants', aliases: [], hidden: false },
];
