// A fast "yes" for bodies of the documented shape. zod's safeParse costs about a millisecond per
// forecast body on a cold process (it builds a parsed copy, with a context object per field,
// that validate.ts throws away), which `predict` of twenty symbols pays twenty times. The
// schemas stay the one truth: this compiles a plain predicate from a zod schema's own
// definition, and zod still judges every body the predicate does not accept, so every warning
// and --strict failure is zod's word for word. The predicate may say "no" to what zod accepts
// (a kind of schema it does not know is always "no": zod then decides); it must never say
// "yes" to what zod refuses. test/unit/quick-accept.test.ts holds it to exact agreement with
// zod on the project's schemas.
import type { ZodTypeAny } from 'zod';

type Accepts = (value: unknown) => boolean;

const never: Accepts = () => false;

const compiled = new WeakMap<ZodTypeAny, Accepts>();

/** A predicate true only of values the schema accepts. */
export function quickAcceptor(schema: ZodTypeAny): Accepts {
  let accepts = compiled.get(schema);
  if (accepts === undefined) {
    accepts = compile(schema);
    compiled.set(schema, accepts);
  }
  return accepts;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

interface Check {
  kind: string;
  value?: number;
  inclusive?: boolean;
  regex?: RegExp;
}

/** The zod v3 definition fields read here; anything else about a schema makes it "unknown". */
interface Def {
  typeName?: string;
  coerce?: boolean;
  checks?: Check[];
  value?: unknown;
  values?: readonly unknown[];
  innerType?: ZodTypeAny;
  type?: ZodTypeAny;
  keyType?: ZodTypeAny;
  valueType?: ZodTypeAny;
  getter?: () => ZodTypeAny;
  shape?: () => Record<string, ZodTypeAny>;
  unknownKeys?: string;
  catchall?: ZodTypeAny;
  minLength?: unknown;
  maxLength?: unknown;
  exactLength?: unknown;
}

function compile(schema: ZodTypeAny): Accepts {
  const def = schema._def as Def;
  switch (def.typeName) {
    case 'ZodUnknown':
    case 'ZodAny':
      return () => true;
    case 'ZodBoolean':
      return (v) => typeof v === 'boolean';
    case 'ZodLiteral': {
      const { value } = def;
      return (v) => v === value;
    }
    case 'ZodEnum': {
      const values = def.values ?? [];
      return (v) => typeof v === 'string' && values.includes(v);
    }
    case 'ZodString':
      return def.coerce ? never : stringAcceptor(def.checks ?? []);
    case 'ZodNumber':
      return def.coerce ? never : numberAcceptor(def.checks ?? []);
    case 'ZodNullable': {
      const inner = quickAcceptor(def.innerType!);
      return (v) => v === null || inner(v);
    }
    case 'ZodOptional': {
      const inner = quickAcceptor(def.innerType!);
      return (v) => v === undefined || inner(v);
    }
    case 'ZodLazy': {
      // Built on first use, as zod builds it (so a schema may refer to itself through z.lazy).
      let inner: Accepts | undefined;
      return (v) => {
        inner ??= quickAcceptor(def.getter!());
        return inner(v);
      };
    }
    case 'ZodArray': {
      if (def.minLength != null || def.maxLength != null || def.exactLength != null) return never;
      const item = quickAcceptor(def.type!);
      return (v) => Array.isArray(v) && v.every((x) => item(x));
    }
    case 'ZodRecord': {
      const key = def.keyType?._def as Def | undefined;
      if (key?.typeName !== 'ZodString' || key.coerce || (key.checks ?? []).length > 0) return never;
      const item = quickAcceptor(def.valueType!);
      return (v) => {
        if (!isPlainObject(v)) return false;
        // for...in, as zod walks a record.
        for (const k in v) if (!item(v[k])) return false;
        return true;
      };
    }
    case 'ZodObject': {
      // Extra keys are kept (passthrough) or dropped (strip): either way they are accepted.
      const catchall = def.catchall?._def as Def | undefined;
      if (def.unknownKeys === 'strict' || catchall?.typeName !== 'ZodNever') return never;
      const fields = Object.entries(def.shape!()).map(([k, s]) => [k, quickAcceptor(s)] as const);
      return (v) => {
        if (!isPlainObject(v)) return false;
        for (const [k, accepts] of fields) if (!accepts(v[k])) return false;
        return true;
      };
    }
    default:
      return never;
  }
}

function numberAcceptor(checks: Check[]): Accepts {
  const tests: Array<(n: number) => boolean> = [];
  for (const c of checks) {
    const bound = c.value!;
    if (c.kind === 'int') tests.push(Number.isInteger);
    else if (c.kind === 'finite') tests.push(Number.isFinite);
    else if (c.kind === 'min') tests.push(c.inclusive ? (n) => n >= bound : (n) => n > bound);
    else if (c.kind === 'max') tests.push(c.inclusive ? (n) => n <= bound : (n) => n < bound);
    else return never;
  }
  return (v) => typeof v === 'number' && !Number.isNaN(v) && tests.every((t) => t(v));
}

function stringAcceptor(checks: Check[]): Accepts {
  const tests: Array<(s: string) => boolean> = [];
  for (const c of checks) {
    if (c.kind !== 'regex') return never;
    const regex = c.regex!;
    tests.push((s) => {
      regex.lastIndex = 0;
      return regex.test(s);
    });
  }
  return (v) => typeof v === 'string' && tests.every((t) => t(v));
}
