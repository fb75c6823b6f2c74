// The comparison's defaults, one place for `fcast journal compare` and the MCP tool
// `journal_compare`, so that both give the same figures for the same journal.
export const DEFAULT_REPLICATES = 2000;
/** A fixed seed: the same bootstrap figures every run. */
export const DEFAULT_SEED = 1;
export const DEFAULT_ALPHA = 0.05;
