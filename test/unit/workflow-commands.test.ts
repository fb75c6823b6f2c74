import { describe, expect, it } from 'vitest';
import { CommandNeutraliser, neutralise, neutralisedIO, writeOwnCommand } from '../../src/output/workflow-commands.js';
import { foreignCommands, ownCommands, runnerCommands } from '../helpers/runner-commands.js';

class Sink {
  text = '';
  write(chunk: string): boolean {
    this.text += chunk;
    return true;
  }
}

describe('neutralise: text', () => {
  it.each([
    ['::stop-commands::pwned', ': :stop-commands::pwned'],
    ['a\n  ::error title=x::y\n', 'a\n  : :error title=x::y\n'],
    ['a\r::set-output name=x::y', 'a\r: :set-output name=x::y'],
    ['\u00a0\u3000\t::x::y', '\u00a0\u3000\t: :x::y'],
    ['\u2028::x::y', '\u2028: :x::y'],
    ['\x1b[33m::x::y', '\x1b[33m: :x::y'],
    ['| ##[error]injected |', '| ## [error]injected |'],
    ['###[x] ##[y', '### [x] ## [y'],
    ['::', ': :'],
  ])('%j -> %j', (input, expected) => {
    expect(neutralise(input, 'text')).toBe(expected);
    expect(runnerCommands(neutralise(input, 'text'))).toEqual([]);
  });

  it.each(['a::b::c', ': :x::y', '#[x] # #[y] #\x1b[0m#[z]', 'time 12:30::00', 'plain text\nwith lines\n'])(
    'leaves %j as it is',
    (input) => {
      expect(neutralise(input, 'text')).toBe(input);
    },
  );

  it('catches a pattern split between two writes', () => {
    const n = new CommandNeutraliser();
    expect([n.push('x\n :'), n.push(':stop-commands::t\n#'), n.push('#'), n.push('[error]x\n')]).toEqual([
      'x\n :',
      ' :stop-commands::t\n#',
      '#',
      ' [error]x\n',
    ]);
  });
});

describe('neutralise: json', () => {
  it('keeps the value: the [ of ##[ and the line separators as \\u escapes', () => {
    const value = { a: '##[error]x ###[y', b: 'p\u2028::stop-commands::q\u2029\u0085r', '##[k': 1 };
    const text = JSON.stringify(value, null, 2);
    const out = neutralise(text, 'json');
    expect(JSON.parse(out)).toEqual(value);
    expect(out).toContain('"##\\u005berror]x ###\\u005by"');
    expect(out).toContain('"p\\u2028::stop-commands::q\\u2029\\u0085r"');
    expect(runnerCommands(out)).toEqual([]);
  });

  it('leaves JSON without either pattern byte for byte', () => {
    const text = JSON.stringify({ a: 'x::y', b: ['#', '[#]'] }, null, 2);
    expect(neutralise(text, 'json')).toBe(text);
  });
});

describe('the boundary', () => {
  it('lets fcast own annotation through, and nothing else', () => {
    const out = new Sink();
    const err = new Sink();
    const io = neutralisedIO({ stdout: out, stderr: err, stdin: undefined as never });
    io.stderr.write('::stop-commands::pwned\n');
    writeOwnCommand(io.stderr, '::error title=fcast track-record%3A gate failed (1h)::1h ##[error]x\n');
    io.stderr.write('::error::not ours\n');
    writeOwnCommand(io.stderr, '::error::two\n::warning::lines\n');
    expect(err.text).toBe(
      ': :stop-commands::pwned\n' +
        '::error title=fcast track-record%3A gate failed (1h)::1h ## [error]x\n' +
        ': :error::not ours\n' +
        ': :error::two\n: :warning::lines\n',
    );
    expect(foreignCommands(err.text)).toEqual([]);
    const own = [{ syntax: 'v2', line: '::error title=fcast track-record%3A gate failed (1h)::1h ## [error]x' }];
    expect(runnerCommands(err.text)).toEqual(own);
    expect(ownCommands(err.text)).toEqual(own);
  });

  it('the tests take only fcast own shape of annotation as its own', () => {
    for (const line of [
      '::error title=fcast accuracy%3A gate failed (1h)::gate failed',
      '::warning title=fcast journal report%3A small sample (1h)::1h: 3 settled',
      '::warning title=fcast track-record%3A warning::text',
    ])
      expect([foreignCommands(line), ownCommands(line).length]).toEqual([[], 1]);
    for (const line of [
      '::error title=Injected::v2',
      '::warning::after a carriage return',
      '::error::x',
      '::notice title=fcast accuracy%3A x::y',
      '::error title=fcast accuracy: gate::y',
      '::error title=fcast accuracy%3A gate::x ##[error]y',
      '  ::error title=fcast accuracy%3A gate::indented',
      '::stop-commands::pwned',
    ])
      expect([ownCommands(line), foreignCommands(line).length]).toEqual([[], 1 + (line.includes('##[') ? 1 : 0)]);
  });

  it('starts its own command on a line of its own', () => {
    const err = new Sink();
    const io = neutralisedIO({ stdout: err, stderr: err, stdin: undefined as never });
    io.stderr.write('half a line');
    writeOwnCommand(io.stderr, '::warning::small sample\n');
    expect(err.text).toBe('half a line\n::warning::small sample\n');
  });

  it('without a guard, a plain write', () => {
    const err = new Sink();
    writeOwnCommand(err, '::warning::x\n');
    expect(err.text).toBe('::warning::x\n');
  });
});
