// Names shared by the completion command, the generator and the symbols cache; kept apart so
// the command file can register them without loading either module at start-up.
export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** The hidden command that prints the cached symbols list (see symbols-cache.ts). */
export const COMPLETE_SYMBOLS_COMMAND = '__complete-symbols';
