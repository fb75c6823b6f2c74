// The quick acceptor must agree with zod exactly on the project's schemas: never "yes" where
// zod says no (a wrong body would pass unwarned), and "yes" wherever zod does (or the fast path
// is never taken and every run pays zod's price again). Checked on the emulator's bodies of
// every resource and on the property harness's hostile mutations of them, each against every
// schema, since a body of one resource is a wrong body for the others; and for both forms of
// the predicates: compiled on first use (the sources) and the table the build writes into the
// bundle (acceptorTableSource, evaluated here as scripts/build.js writes it).
import fc from 'fast-check';
import { z } from 'zod';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PRECOMPILED } from '../../src/api/accept-table.js';
import { checkShape } from '../../src/api/validate.js';
import { type Accepts, acceptorTableSource, quickAcceptor } from '../../src/api/quick-accept.js';
import * as schemas from '../../src/schema/bodies.js';
import { bodyOf, collectBodies, FUZZ_PARAMS, RESOURCES } from '../property/harness.js';

const { SCHEMAS } = schemas;
/** The bundle's table, made as the build makes it. */
const TABLE = new Function(`return ${acceptorTableSource(SCHEMAS)};`)() as Record<schemas.SchemaName, Accepts>;

let corpus: unknown[] = [];
beforeAll(async () => {
  const bodies = await collectBodies();
  corpus = RESOURCES.flatMap((r) => bodies[r]);
}, 30_000);

describe('quickAcceptor', () => {
  it('every schema the project exports is in SCHEMAS, so the build precompiles it', () => {
    const exported = Object.keys(schemas).filter((name) => name.endsWith('Schema'));
    expect(exported.map((name) => name.replace(/Schema$/, '')).sort()).toEqual(Object.keys(SCHEMAS).sort());
    // Run from the sources, nothing is precompiled: every path through zod is what the tests see.
    expect(PRECOMPILED).toEqual({});
  });

  it('accepts each emulator body its own schema accepts, without zod', () => {
    let accepted = 0;
    for (const body of corpus) {
      for (const [name, schema] of Object.entries(SCHEMAS)) {
        const zod = schema.safeParse(body).success;
        expect(quickAcceptor(schema)(body)).toBe(zod);
        expect(TABLE[name as schemas.SchemaName](body)).toBe(zod);
        if (zod) accepted++;
      }
    }
    // Every body matches at least the loose schema, and most their own as well.
    expect(accepted).toBeGreaterThan(corpus.length * 1.5);
  });

  for (const [name, schema] of Object.entries(SCHEMAS)) {
    it(`agrees with zod on hostile mutations of every resource: ${name} (property)`, () => {
      let accepted = 0;
      let refused = 0;
      fc.assert(
        fc.property(bodyOf(corpus), (body) => {
          const zod = schema.safeParse(body).success;
          expect(quickAcceptor(schema)(body)).toBe(zod);
          expect(TABLE[name as schemas.SchemaName](body)).toBe(zod);
          if (zod) accepted++;
          else refused++;
        }),
        // Both answers take a few hundred bodies to come up for some resources, at any count asked.
        { ...FUZZ_PARAMS, numRuns: Math.max(FUZZ_PARAMS.numRuns, 300) },
      );
      // Both answers were exercised, or agreement proves little.
      expect(accepted).toBeGreaterThan(0);
      expect(refused).toBeGreaterThan(0);
    });
  }

  it('agrees with zod on every kind of check it compiles, at the edges', () => {
    const cases: Array<[z.ZodTypeAny, unknown[]]> = [
      [z.number().int().min(0).max(10), [0, 10, -1, 11, 0.5, Number.NaN, Infinity, '1', null]],
      [z.number().gt(0).lt(1), [0, 1, 0.5, -0]],
      [z.number().finite(), [Infinity, -Infinity, 1e308, Number.NaN]],
      [z.string().regex(/^a+$/g), ['a', 'aa', 'b', '', 1]],
      [z.literal(true), [true, false, 'true', 1]],
      [z.enum(['x', 'y']), ['x', 'z', 1, undefined]],
      [z.array(z.number()).nullable().optional(), [[], [1], ['1'], null, undefined, {}]],
      [z.record(z.number()), [{}, { a: 1 }, { a: '1' }, [], null, JSON.parse('{"__proto__":"x"}')]],
      [z.object({ a: z.unknown(), b: z.boolean().optional() }).passthrough(), [{}, { b: 1 }, { b: true, c: 1 }, []]],
    ];
    for (const [schema, values] of cases)
      for (const v of values)
        expect(quickAcceptor(schema)(v), `${schema._def.typeName} on ${String(v)}`).toBe(schema.safeParse(v).success);
  });

  describe('where code generation from strings is forbidden', () => {
    afterEach(() => vi.unstubAllGlobals());

    it('says no to everything, and zod judges: a warning, never an internal error', () => {
      // As --disallow-code-generation-from-strings makes `new Function` throw.
      vi.stubGlobal('Function', function refused() {
        throw new EvalError('Code generation from strings disallowed for this context');
      });
      const schema = z.object({ n: z.number() }).passthrough();
      expect(quickAcceptor(schema)({ n: 1 })).toBe(false);
      const warnings: string[] = [];
      const log = { note: () => {}, warn: (m: string) => warnings.push(m), debug: () => {} };
      expect(checkShape(schema, { n: 1 }, 'x.php', { log, strict: false })).toBe(true);
      expect(checkShape(schema, { n: 'one' }, 'x.php', { log, strict: false })).toBe(false);
      expect(warnings).toEqual([
        expect.stringMatching(/^x\.php: the response does not match the documented shape \(n: /),
      ]);
    });
  });

  it('leaves the kinds it does not compile to zod: "no", never a wrong "yes"', () => {
    const cases: Array<[z.ZodTypeAny, unknown]> = [
      [z.object({ a: z.string() }).strict(), { a: 'x' }],
      [z.string().email(), 'a@example.com'],
      [z.array(z.number()).min(1), [1]],
      [z.number().multipleOf(2), 4],
      [z.coerce.number(), 1],
      [z.union([z.string(), z.number()]), 1],
    ];
    for (const [schema, value] of cases) {
      expect(schema.safeParse(value).success).toBe(true);
      expect(quickAcceptor(schema)(value)).toBe(false);
    }
  });
});
