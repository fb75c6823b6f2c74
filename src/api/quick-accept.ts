// A fast "yes" for bodies of the documented shape. zod is dear on a cold process (it builds a
// parsed copy, with a context object per field, that validate.ts throws away), and so are
// loading it and building a schema (docs/decisions/2026-11-25-shape-predicates-over-zod4.md has
// the figures). The schemas stay the one truth: this writes a plain JavaScript predicate
// from a zod schema's own definition, and zod still judges every body the predicate does not
// accept, so every warning and --strict failure is zod's word for word.
// The predicate may say "no" to what zod accepts (a kind of schema it does not know is always
// "no": zod then decides); it must never say "yes" to what zod refuses. The same source serves
// twice: compiled on first use when fcast runs from its sources (the tests), and written into
// the bundle by scripts/build.js (accept-table.ts), so that a run checks a body of the right
// shape without loading zod at all. test/unit/quick-accept.test.ts holds both to exact
// agreement with zod on the project's schemas.
// The values judged are parsed JSON: plain objects, arrays, strings, finite numbers, booleans, null.
import type { ZodTypeAny } from 'zod';

export type Accepts = (value: unknown) => boolean;

const compiled = new WeakMap<ZodTypeAny, Accepts>();

/**
 * A predicate true only of values the schema accepts, compiled once per schema; "no" to
 * everything where the process forbids code generation from strings
 * (--disallow-code-generation-from-strings), so that zod judges every body there.
 */
export function quickAcceptor(schema: ZodTypeAny): Accepts {
  let accepts = compiled.get(schema);
  if (accepts === undefined) {
    try {
      accepts = new Function(`return ${acceptorSource(schema)};`)() as Accepts;
    } catch {
      accepts = () => false;
    }
    compiled.set(schema, accepts);
  }
  return accepts;
}

/** Several named schemas' predicates as the source of one object literal (for the bundle). */
export function acceptorTableSource(schemas: Record<string, ZodTypeAny>): string {
  const entries = Object.entries(schemas).map(
    ([name, schema]) => `  ${JSON.stringify(name)}: ${acceptorSource(schema)}`,
  );
  return `{\n${entries.join(',\n')}\n}`;
}

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

const NOT_A_PLAIN_OBJECT = "if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;";

/**
 * The source of an expression whose value is the schema's predicate: one small function per
 * schema node (a node used twice, like `meta`, is written once), inside one closure.
 */
function acceptorSource(root: ZodTypeAny): string {
  const names = new Map<ZodTypeAny, string>();
  const functions: string[] = [];
  const constants: string[] = [];

  /** The name of the node's function, written on first use; set before the body, so a z.lazy cycle ends. */
  const fn = (schema: ZodTypeAny): string => {
    let name = names.get(schema);
    if (name === undefined) {
      name = `a${names.size}`;
      names.set(schema, name);
      functions.push(`function ${name}(v) {\n${body(schema).join('\n')}\n}`);
    }
    return name;
  };
  const constant = (source: string): string => {
    constants.push(`const c${constants.length} = ${source};`);
    return `c${constants.length - 1}`;
  };
  const literal = (x: unknown): string | undefined =>
    typeof x === 'string' || typeof x === 'boolean' || x === null || (typeof x === 'number' && Number.isFinite(x))
      ? JSON.stringify(x)
      : undefined;

  function body(schema: ZodTypeAny): string[] {
    const def = schema._def as Def;
    const no = ['return false;'];
    switch (def.typeName) {
      case 'ZodUnknown':
      case 'ZodAny':
        return ['return true;'];
      case 'ZodBoolean':
        return ["return typeof v === 'boolean';"];
      case 'ZodLiteral': {
        const value = literal(def.value);
        return value === undefined ? no : [`return v === ${value};`];
      }
      case 'ZodEnum': {
        const values = (def.values ?? []).map(literal);
        if (values.some((x) => x === undefined)) return no;
        return [`return typeof v === 'string' && (${values.map((x) => `v === ${x}`).join(' || ') || 'false'});`];
      }
      case 'ZodString': {
        if (def.coerce) return no;
        const lines = ["if (typeof v !== 'string') return false;"];
        for (const c of def.checks ?? []) {
          if (c.kind !== 'regex') return no;
          // As zod tests it: from the start, whatever an earlier test left in lastIndex.
          const regex = constant(String(c.regex));
          lines.push(`${regex}.lastIndex = 0;`, `if (!${regex}.test(v)) return false;`);
        }
        return [...lines, 'return true;'];
      }
      case 'ZodNumber': {
        if (def.coerce) return no;
        const lines = ["if (typeof v !== 'number' || Number.isNaN(v)) return false;"];
        for (const c of def.checks ?? []) {
          // zod's own comparisons, so an edge (a bound of NaN, say) falls the same way.
          const bound = typeof c.value === 'number' ? numberSource(c.value) : undefined;
          if (c.kind === 'int') lines.push('if (!Number.isInteger(v)) return false;');
          else if (c.kind === 'finite') lines.push('if (!Number.isFinite(v)) return false;');
          else if (c.kind === 'min' && bound !== undefined)
            lines.push(`if (v ${c.inclusive ? '<' : '<='} ${bound}) return false;`);
          else if (c.kind === 'max' && bound !== undefined)
            lines.push(`if (v ${c.inclusive ? '>' : '>='} ${bound}) return false;`);
          else return no;
        }
        return [...lines, 'return true;'];
      }
      case 'ZodNullable':
        return [`return v === null || ${fn(def.innerType!)}(v);`];
      case 'ZodOptional':
        return [`return v === undefined || ${fn(def.innerType!)}(v);`];
      case 'ZodLazy':
        return [`return ${fn(def.getter!())}(v);`];
      case 'ZodArray': {
        if (def.minLength != null || def.maxLength != null || def.exactLength != null) return no;
        return [
          'if (!Array.isArray(v)) return false;',
          `for (const x of v) if (!${fn(def.type!)}(x)) return false;`,
          'return true;',
        ];
      }
      case 'ZodRecord': {
        const key = def.keyType?._def as Def | undefined;
        if (key?.typeName !== 'ZodString' || key.coerce || (key.checks ?? []).length > 0) return no;
        // for...in, as zod walks a record.
        return [
          NOT_A_PLAIN_OBJECT,
          `for (const k in v) if (!${fn(def.valueType!)}(v[k])) return false;`,
          'return true;',
        ];
      }
      case 'ZodObject': {
        // Extra keys are kept (passthrough) or dropped (strip): either way they are accepted.
        const catchall = def.catchall?._def as Def | undefined;
        if (def.unknownKeys === 'strict' || catchall?.typeName !== 'ZodNever') return no;
        const fields = Object.entries(def.shape!()).map(
          ([key, field]) => `if (!${fn(field)}(v[${JSON.stringify(key)}])) return false;`,
        );
        return [NOT_A_PLAIN_OBJECT, ...fields, 'return true;'];
      }
      default:
        return no;
    }
  }

  const start = fn(root);
  return `(() => {\n${[...constants, ...functions].join('\n')}\nreturn ${start};\n})()`;
}

const numberSource = (n: number): string => (Object.is(n, -0) ? '-0' : String(n));
