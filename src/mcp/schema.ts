// The JSON Schemas of the tools, and the small checker of tool arguments against them: one
// source for what tools/list shows and what tools/call accepts. Each `type` is one name (a
// nullable field is `anyOf`, via `nullable`): a client that maps schemas onto a single-type
// dialect (Gemini's function declarations) would reject an array, and the MCP Inspector's
// --strict check warns of it.

/** An object's schema: its properties, and those it always has (by default, all of them). */
export const objectOf = (
  properties: Record<string, JsonSchema>,
  required: string[] = Object.keys(properties),
  description?: string,
): JsonSchema => ({ type: 'object', ...(description !== undefined && { description }), properties, required });

/** `{anyOf: [schema, {type: 'null'}]}`. */
export const nullable = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: 'null' }] });

export interface JsonSchema {
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: readonly (string | number)[];
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  default?: unknown;
  anyOf?: JsonSchema[];
  [key: string]: unknown;
}

const typeOf = (v: unknown): string =>
  v === null
    ? 'null'
    : Array.isArray(v)
      ? 'array'
      : typeof v === 'number'
        ? Number.isInteger(v)
          ? 'integer'
          : 'number'
        : typeof v;

const fits = (type: string, v: unknown): boolean => {
  const t = typeOf(v);
  return t === type || (type === 'number' && t === 'integer');
};

/** The first way `value` breaks `schema`, said for the assistant (`symbols: at most 10 items`); undefined when it fits. */
export function violation(schema: JsonSchema, value: unknown, path = 'arguments'): string | undefined {
  if (schema.anyOf) {
    const misses = schema.anyOf.map((branch) => violation(branch, value, path));
    if (misses.every((m) => m !== undefined))
      return `${path}: expected ${schema.anyOf.map((b) => b.type ?? 'a value').join(' or ')}, got ${typeOf(value)}`;
  }
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.some((t) => fits(t, value))) return `${path}: expected ${types.join(' or ')}, got ${typeOf(value)}`;
  }
  if (schema.enum && !schema.enum.includes(value as string | number))
    return `${path}: expected one of ${schema.enum.join(', ')}`;
  if (typeof value === 'string') {
    if (schema.minLength !== undefined && value.length < schema.minLength)
      return `${path}: at least ${schema.minLength} character(s)`;
    if (schema.maxLength !== undefined && value.length > schema.maxLength)
      return `${path}: at most ${schema.maxLength} characters`;
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) return `${path}: at least ${schema.minimum}`;
    if (schema.maximum !== undefined && value > schema.maximum) return `${path}: at most ${schema.maximum}`;
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems)
      return `${path}: at least ${schema.minItems} item(s)`;
    if (schema.maxItems !== undefined && value.length > schema.maxItems)
      return `${path}: at most ${schema.maxItems} items`;
    if (schema.items)
      for (const [i, item] of value.entries()) {
        const v = violation(schema.items, item, `${path}[${i}]`);
        if (v) return v;
      }
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    for (const name of schema.required ?? []) if (!(name in record)) return `${path}: ${name} is required`;
    for (const [name, v] of Object.entries(record)) {
      const property = schema.properties?.[name];
      if (property === undefined) {
        if (schema.additionalProperties === false) {
          const known = Object.keys(schema.properties ?? {});
          return `${path}: unknown property ${JSON.stringify(name).slice(0, 60)}${known.length ? ` (known: ${known.join(', ')})` : ' (this tool takes none)'}`;
        }
        continue;
      }
      const found = violation(property, v, `${path}.${name}`);
      if (found) return found;
    }
  }
  return undefined;
}
