// The shape verdict is one line a person can read, whatever keys and values the server chose.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkShape } from '../../src/api/validate.js';

function warningFor(body: unknown): string {
  const warnings: string[] = [];
  const log = { note: () => {}, warn: (m: string) => warnings.push(m), debug: () => {} };
  const schema = z.object({ timeframes: z.record(z.number()), label: z.enum(['long', 'short']) });
  expect(checkShape(schema, body, 'x.php', { log, strict: false })).toBe(false);
  expect(warnings).toHaveLength(1);
  return warnings[0]!;
}

describe('checkShape', () => {
  it('shows a key holding a tab or newline JSON-quoted, so the warning stays one plain line', () => {
    const warning = warningFor({ timeframes: { '\t': 'x', 'a\nb': 1 }, label: 'long' });
    expect(warning).toContain('timeframes."\\t": Expected number, received string');
    expect(warning).not.toMatch(/[\t\n\r]/);
  });

  it('keeps a received value with line breaks on one line', () => {
    expect(warningFor({ timeframes: {}, label: 'up\n\tdown' })).not.toMatch(/[\t\n\r]/);
  });
});
