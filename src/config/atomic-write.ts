// The atomic write lives in core/ so that the output boundary (core/sinks.ts) can use it;
// config/ and journal/ keep importing it from here.
export { TEMP_MARK, unlinkQuietly, writeAtomically } from '../core/atomic-write.js';
