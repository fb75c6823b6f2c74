// The layers, one folder each (CONTRIBUTING.md, "Layout"), held by `npm run lint:deps`:
//
//   entry -> cli/ (main, program) -> commands/* -> watch/    -> output/, api/
//                                              -> journal/  -> evidence/, api/
//                                              -> api/      -> config/ -> core/
//                                              -> evidence/ (pure)     -> core/
//                                              -> output/ (renderers)  -> core/
//
// core/ is the floor (domain vocabulary, errors, context, values) and imports no layer; config/
// stands on core/ only. A renderer takes parsed bodies, so output/, evidence/ and journal/ may
// import the *types* of api/schemas.ts: those are the domain types. Nothing else of api/ is theirs.
const LAYERS_ABOVE_API = 'commands|cli|evidence|completion|doctor|mock|watch|journal|output';

// No folder imports a folder that imports it back, directly or through others, dynamic and
// type-only imports included (dependency-cruiser's folder scope counts every import). Two such
// cycles stand today, both through cli/, which is still two layers (the entry, and what the
// commands share): cli/program.ts registers the commands while the commands import cli/'s
// helpers (command.ts, input.ts, the *-flags.ts files, record.ts, setting-origin.ts), and
// cli/program.ts imports completion/names.ts while completion/tree.ts imports
// cli/help-topics.ts. Those folder edges, and only those, are allowed here; moving what the
// commands share into a helper folder below them (gh's pkg/cmdutil; issue 32, item 1) removes
// them, and then this list is emptied. Any other edge that closes a folder cycle is an error.
const KNOWN_FOLDER_CYCLE_EDGES = {
  'src/cli': ['src/commands', 'src/completion'],
  'src/commands': ['src/cli', 'src/completion'],
  'src/completion': ['src/cli'],
};
const exactly = (folders) => `^(${folders.map((f) => f.replace(/\./g, '\\.')).join('|')})$`;
const FOLDER_CYCLE_RULES = [
  {
    name: 'no-folder-cycle',
    comment: 'A folder that imports a folder importing it back makes the two one layer: split what both need into a third.',
    severity: 'error',
    scope: 'folder',
    from: { pathNot: exactly(Object.keys(KNOWN_FOLDER_CYCLE_EDGES)) },
    to: { circular: true },
  },
  ...Object.entries(KNOWN_FOLDER_CYCLE_EDGES).map(([from, known]) => ({
    name: `no-folder-cycle-but-known-from-${from.replace(/^src\//, '')}`,
    comment: `${from} is in a known folder cycle (see KNOWN_FOLDER_CYCLE_EDGES); an edge to any other folder that closes one is new.`,
    severity: 'error',
    scope: 'folder',
    from: { path: exactly([from]) },
    to: { circular: true, pathNot: exactly(known) },
  })),
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'only-program-registers-commands',
      comment: 'A command is reached through its registration in src/cli/program.ts, never imported by another module.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/cli/program\\.ts$' },
      to: { path: '^src/commands/' },
    },
    {
      name: 'nothing-imports-the-entry',
      comment:
        'main.ts and program.ts sit on top: only main.ts builds the program, and only entry.ts (what bin/fcast.js loads) imports main.ts.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(cli/main|entry)\\.ts$' },
      to: { path: '^src/(cli/main|cli/program|entry)\\.ts$' },
    },
    {
      name: 'core-is-the-floor',
      comment: 'core/ (domain, errors, context, values) sits under every layer and imports none of them.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^src/', pathNot: '^src/core/' },
    },
    {
      name: 'config-stands-on-core',
      comment: 'config/ (settings, the config store, keys) is read by api/ and commands alike: it imports only core/.',
      severity: 'error',
      from: { path: '^src/config/' },
      to: { path: '^src/', pathNot: '^src/(core|config)/' },
    },
    {
      name: 'api-never-writes-output',
      comment: 'api/ reports through a small log port it defines; the command wires it to stderr.',
      severity: 'error',
      from: { path: '^src/api/' },
      to: { path: '^src/output/' },
    },
    {
      name: 'api-stays-below-commands',
      comment: 'api/ knows settings, errors and its own modules, not what uses it.',
      severity: 'error',
      from: { path: '^src/api/' },
      to: { path: `^src/(${LAYERS_ABOVE_API})/` },
    },
    {
      name: 'output-never-fetches',
      comment: 'Of api/, output/ may name the schema types (import type), nothing more.',
      severity: 'error',
      from: { path: '^src/output/' },
      to: { path: '^src/api/', pathNot: '^src/api/schemas\\.ts$' },
    },
    {
      name: 'output-names-schema-types-only',
      comment: "The schemas are values too (zod); validating a body is the command's step, before output/.",
      severity: 'error',
      from: { path: '^src/output/' },
      to: { path: '^src/api/schemas\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'output-never-decides',
      comment:
        'evidence/ and journal/ compute; output/ renders what they computed: it may name their types (import type), never call them.',
      severity: 'error',
      from: { path: '^src/output/' },
      to: { path: '^src/(evidence|journal)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'output-stands-on-core',
      comment:
        'output/ renders: core/, its own modules and the types of what it renders; nothing that fetches, reads settings or runs a command.',
      severity: 'error',
      from: { path: '^src/output/' },
      to: { path: '^src/', pathNot: '^src/(core|output|evidence|journal)/|^src/api/schemas\\.ts$' },
    },
    {
      name: 'completion-reads-the-tree',
      comment: 'completion/ walks the command tree it is given and reads the settings and the symbols cache.',
      severity: 'error',
      from: { path: '^src/completion/' },
      to: { path: '^src/', pathNot: '^src/(core|config|completion)/|^src/cli/help-topics\\.ts$' },
    },
    {
      name: 'doctor-checks-through-the-layers',
      comment: 'doctor/ checks settings, files and the service through config/ and api/, and words its verdicts with output/.',
      severity: 'error',
      from: { path: '^src/doctor/' },
      to: { path: '^src/', pathNot: '^src/(core|config|api|output|doctor)/' },
    },
    {
      name: 'evidence-is-pure',
      comment: 'evidence/ computes: it neither fetches, renders nor reads settings.',
      severity: 'error',
      from: { path: '^src/evidence/' },
      to: { path: '^src/', pathNot: '^src/(core|evidence|api/schemas\\.ts$)' },
    },
    {
      name: 'evidence-names-schema-types-only',
      comment: "The schemas are values too (zod); validating a body is the command's step, before evidence/.",
      severity: 'error',
      from: { path: '^src/evidence/' },
      to: { path: '^src/api/schemas\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'journal-below-commands',
      comment:
        'journal/ records, settles and scores: it stands on evidence/ (Wilson), api/ (schemas, candles), config/ (the lock, the private directory) and core/; it never renders (output/) nor reaches a command or cli/.',
      severity: 'error',
      from: { path: '^src/journal/' },
      to: { path: '^src/', pathNot: '^src/(core|config|api|evidence|journal)/' },
    },
    {
      name: 'cli-is-not-a-command',
      comment: 'cli/ holds the tree and what commands share; it reaches a command only through program.ts.',
      severity: 'error',
      from: { path: '^src/cli/', pathNot: '^src/cli/program\\.ts$' },
      to: { path: '^src/commands/' },
    },
    {
      name: 'watch-is-handed-its-fetch',
      comment:
        'watch/ (the refresh loop, the screen, the stream) gets its fetch and render from the command: it imports output/, api/, core/ and config/, never a command or cli/.',
      severity: 'error',
      from: { path: '^src/watch/' },
      to: { path: '^src/', pathNot: '^src/(watch|output|api|core|config)/' },
    },
    {
      name: 'watch-loads-only-to-watch',
      comment:
        'A command that does not watch must not load the watch (the start-up budget): outside watch/, it is reached by a dynamic import (cli/watch-flags.ts runWatch) or for its types only.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/watch/' },
      to: { path: '^src/watch/', dependencyTypesNot: ['dynamic-import', 'type-only'] },
    },
    {
      name: 'mock-serves-alone',
      comment:
        'The emulator shares the domain vocabulary and the pure statistics, never the client: it must not agree with fcast by importing it.',
      severity: 'error',
      from: { path: '^src/mock/' },
      to: { path: '^src/', pathNot: '^src/(core|mock|evidence)/' },
    },
    {
      name: 'files-for-people-through-the-boundary',
      comment:
        "A file written for people goes through core/sinks.ts (appendToFile, saveFile), which redacts it. The atomic write under it is reached directly only by config/atomic-write.ts (the config file's settings; journal prune's byte-for-byte rewrite); test/unit/output-boundary.test.ts holds every other fs write.",
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/core/sinks\\.ts$|^src/config/atomic-write\\.ts$' },
      to: { path: '^src/core/atomic-write\\.ts$' },
    },
    {
      name: 'no-circular',
      comment: 'A cycle makes two modules one; split what both need into a third.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    ...FOLDER_CYCLE_RULES,
  ],
  options: {
    // Type-only imports count: they are how a layer names another's types, which the rules allow or not.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
