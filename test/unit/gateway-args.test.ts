// The shaping of `fcast cmd` arguments into the gateway's `args` array, and every refusal
// (exit 2) that must happen before a request is sent.
import { describe, expect, it } from 'vitest';
import { GATEWAY_COMMANDS, type GatewayCommand } from '../../src/core/domain.js';
import { ExitCode, UsageError } from '../../src/core/errors.js';
import {
  argumentsUsage,
  checkTimeZone,
  commandListing,
  gatewaySymbol,
  gatewayTimeframe,
  requireGatewayCommand,
  shapeGatewayArgs,
} from '../../src/cmdutil/gateway-args.js';

const command = (name: string): GatewayCommand => GATEWAY_COMMANDS.find((c) => c.name === name)!;
const shape = (name: string, ...raw: string[]) => shapeGatewayArgs(command(name), raw);

function usageError(fn: () => unknown): UsageError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).exitCode).toBe(ExitCode.Usage);
    return err as UsageError;
  }
  throw new Error('expected a usage error');
}

describe('the allowlist', () => {
  it('finds the eight commands, case-insensitively', () => {
    for (const c of GATEWAY_COMMANDS) {
      expect(requireGatewayCommand(c.name)).toBe(c);
      expect(requireGatewayCommand(c.name.toUpperCase())).toBe(c);
    }
    expect(GATEWAY_COMMANDS.map((c) => c.name)).toEqual([
      'snapshot',
      'search',
      'indicators',
      'analyze',
      'opportunities',
      'macro',
      'calendar',
      'events',
    ]);
  });

  it('refuses an unknown or missing command, listing every command with its arguments', () => {
    for (const bad of ['trade', 'snapshots', '', undefined]) {
      const err = usageError(() => requireGatewayCommand(bad));
      expect(err.message).toContain('analyze <symbol> <timeframe>');
      expect(err.message).toContain('events <kind> [symbol] [days]');
      expect(err.message).toContain('snapshot');
    }
    expect(usageError(() => requireGatewayCommand('trade')).message).toMatch(/unknown gateway command 'trade'/);
  });

  it('shows required arguments in angle brackets and optional ones in square brackets', () => {
    expect(argumentsUsage(command('calendar'))).toBe('<symbol> [user_tz]');
    expect(argumentsUsage(command('macro'))).toBe('');
    expect(commandListing()).toBe(
      'snapshot, search <query> [asset_class], indicators <symbol> <timeframe>, analyze <symbol> <timeframe>, ' +
        'opportunities [limit], macro, calendar <symbol> [user_tz], events <kind> [symbol] [days]',
    );
  });

  it('sends a default for an argument the gateway requires and a user need not type (opportunities: 10)', () => {
    expect(shapeGatewayArgs(command('opportunities'), [])).toEqual([10]);
    expect(shapeGatewayArgs(command('opportunities'), ['3'])).toEqual([3]);
  });
});

describe('shapeGatewayArgs', () => {
  it('sends symbols without the slash, in every spelling a user may type', () => {
    for (const typed of ['BTC/USD', 'btc/usd', 'BTC-USD', 'btc-usd', 'BTCUSD', 'btcusd', ' BTC / USD ']) {
      expect(shape('analyze', typed, '1h')).toEqual(['BTCUSD', '1h']);
    }
    expect(shape('calendar', 'aapl/usd')).toEqual(['AAPLUSD']);
  });

  it('sends limit and days as JSON numbers', () => {
    const [limit] = shape('opportunities', '10');
    expect(limit).toBe(10);
    expect(typeof limit).toBe('number');
    expect(shape('events', 'earnings', 'AAPL/USD', '7')).toEqual(['earnings', 'AAPLUSD', 7]);
  });

  it('refuses integers that are not plain digits >= 1', () => {
    for (const bad of ['0', '-1', '1.5', '1e3', '0x10', 'ten', '', ' ']) {
      const err = usageError(() => shape('opportunities', bad));
      expect(err.message).toMatch(/limit must be a whole number >= 1/);
    }
    expect(usageError(() => shape('events', 'all', 'BTCUSD', 'week')).message).toMatch(
      /days must be a whole number >= 1/,
    );
  });

  it('sends other arguments as typed: a time zone keeps its slash, text keeps its case', () => {
    expect(shape('calendar', 'EUR/USD', 'Europe/Madrid')).toEqual(['EURUSD', 'Europe/Madrid']);
    expect(shape('calendar', 'EUR/USD', 'america/new_york')).toEqual(['EURUSD', 'america/new_york']);
    expect(shape('search', 'Bitcoin Cash', 'crypto')).toEqual(['Bitcoin Cash', 'crypto']);
    expect(shape('search', 'EUR/USD')).toEqual(['EUR/USD']);
  });

  it('spells minutes the service way and keeps hours, days and weeks', () => {
    expect(shape('indicators', 'ETHUSD', '15m')).toEqual(['ETHUSD', '15min']);
    expect(shape('indicators', 'ETHUSD', '15min')).toEqual(['ETHUSD', '15min']);
    expect(shape('indicators', 'ETHUSD', '4H')).toEqual(['ETHUSD', '4h']);
    expect(shape('indicators', 'ETHUSD', '1d')).toEqual(['ETHUSD', '1d']);
    expect(shape('indicators', 'ETHUSD', '1w')).toEqual(['ETHUSD', '1w']);
  });

  it('refuses a missing required argument and too many arguments', () => {
    expect(usageError(() => shape('analyze', 'BTCUSD')).message).toMatch(/analyze: the argument timeframe is required/);
    expect(usageError(() => shape('analyze')).message).toMatch(/the argument symbol is required/);
    const tooMany = usageError(() => shape('analyze', 'BTCUSD', '1h', 'extra'));
    expect(tooMany.message).toMatch(/analyze takes at most 2 arguments \(symbol, timeframe\), got 3/);
    expect(tooMany.hint).toContain('fcast cmd analyze <symbol> <timeframe>');
    expect(usageError(() => shape('macro', 'now')).message).toMatch(/macro takes no arguments, got 1/);
    expect(usageError(() => shape('search', '   ')).message).toMatch(/query must not be empty/);
  });

  it('takes no arguments for snapshot and macro', () => {
    expect(shape('snapshot')).toEqual([]);
    expect(shape('macro')).toEqual([]);
  });

  it("leaves an optional argument out with '-' so that a later one can be given", () => {
    expect(shape('events', 'earnings', '-', '7')).toEqual(['earnings', null, 7]);
    // Trailing left-out arguments are not sent at all.
    expect(shape('events', 'earnings', '-')).toEqual(['earnings']);
    expect(shape('events', 'earnings', 'BTC/USD', '-')).toEqual(['earnings', 'BTCUSD']);
    // A required argument cannot be left out.
    expect(usageError(() => shape('analyze', '-', '1h')).message).toMatch(/symbol is required/);
  });
});

describe('argument kinds', () => {
  it('refuses symbols that are neither BASE/QUOTE nor BASEQUOTE', () => {
    for (const bad of ['B', 'BTC/', '/USD', 'BTC/USD/EUR', 'BTC USD', 'BTC$USD', '']) {
      expect(usageError(() => gatewaySymbol(bad)).message).toMatch(/invalid symbol/);
    }
  });

  it('refuses timeframes off the number-and-unit pattern', () => {
    for (const bad of ['h', '0h', '1x', '1 hour', '90s', '1.5h', '-1h', '1month', '']) {
      expect(usageError(() => gatewayTimeframe(bad)).message).toMatch(/invalid timeframe/);
    }
  });

  it('accepts IANA time zone names and refuses others, unchanged', () => {
    for (const tz of ['Europe/Madrid', 'America/New_York', 'UTC', 'Asia/Kolkata']) expect(checkTimeZone(tz)).toBe(tz);
    for (const bad of ['Mars/Olympus_Mons', 'Europe/Nowhere', '', ' Europe/Madrid', 'GMT+25']) {
      expect(usageError(() => checkTimeZone(bad)).message).toMatch(/unknown time zone/);
    }
  });

  it('names the command and argument in each message', () => {
    expect(usageError(() => shape('calendar', 'EURUSD', 'Mars/Base')).message).toMatch(
      /^calendar: user_tz: unknown time zone 'Mars\/Base'/,
    );
    expect(usageError(() => shape('analyze', 'BTC$USD', '1h')).message).toMatch(/^analyze: symbol: invalid symbol/);
    expect(usageError(() => shape('indicators', 'BTCUSD', 'hourly')).message).toMatch(
      /^indicators: timeframe: invalid timeframe 'hourly'/,
    );
  });
});
