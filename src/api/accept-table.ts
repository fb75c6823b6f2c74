// The bundle's precompiled shape predicates, one per schema of schema/bodies.ts, so that a body of
// the documented shape is checked without loading zod. Empty here: scripts/build.js replaces
// this module in the bundle with the predicates it writes from the schemas (quick-accept.ts);
// run from the sources (the tests), each is compiled from its zod schema on first use.
import type { Accepts } from './quick-accept.js';
import type { SchemaName } from '../schema/bodies.js';

export const PRECOMPILED: Partial<Record<SchemaName, Accepts>> = {};
