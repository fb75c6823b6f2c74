// The layers, one folder each (CONTRIBUTING.md, "Layout"), held by `npm run lint:deps`:
//
//   bin -> launch/ (fast paths, stdio, loader) ... entry (found by path at run time)
//   entry -> cli/ (main, program) -> commands/* -> cmdutil/ (run context, shared flags, input)
//                                              -> watch/    -> output/, api/
//                                              -> journal/  -> evidence/, api/
//                                              -> api/      -> config/, schema/ -> core/
//                                              -> evidence/ (pure)     -> schema/ (types), core/
//                                              -> output/ (renderers)  -> schema/ (types), core/
//
// core/ is the floor (domain vocabulary, errors, context, values) and imports no layer; config/
// stands on core/ only. schema/ (the bodies' zod schemas and their types) stands on core/ only,
// below both api/, which validates with it, and the layers that take parsed bodies: output/,
// evidence/ and journal/ may import its *types*, and never import api/ at all.
const LAYERS_ABOVE_API = 'commands|cli|cmdutil|evidence|completion|doctor|mock|watch|journal|output|mcp';

// No folder imports a folder that imports it back, directly or through others, dynamic and
// type-only imports included (dependency-cruiser's folder scope counts every import). There is
// no allowlist: cli/ is only the entry (main, the command tree), and what the commands share
// stands below them in cmdutil/ (gh's pkg/cmdutil; issue 32, item 1), so any edge that closes a
// folder cycle is an error.
const FOLDER_CYCLE_RULES = [
  {
    name: 'no-folder-cycle',
    comment: 'A folder that imports a folder importing it back makes the two one layer: split what both need into a third.',
    severity: 'error',
    scope: 'folder',
    from: { path: '^src/' },
    to: { circular: true },
  },
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'only-program-registers-commands',
      comment:
        'A command is reached through its registration in src/cli/program.ts, never imported by another module (a command that is a folder, like journal/, is the next rule).',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/cli/program\\.ts$|^src/commands/' },
      to: { path: '^src/commands/' },
    },
    {
      name: 'a-command-is-one-place',
      comment:
        "A command's modules (one file, or one folder such as commands/journal/: its tree, each subcommand's body) import one another, never another command's.",
      severity: 'error',
      from: { path: '^src/commands/([^/.]+)' },
      to: { path: '^src/commands/', pathNot: '^src/commands/$1(/|\\.ts$)' },
    },
    {
      name: 'nothing-imports-the-entry',
      comment:
        'main.ts and program.ts sit on top: only main.ts builds the program, and only entry.ts (what the launcher loads) imports main.ts.',
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
      comment: 'output/ never imports api/, not even a type: the body types live below both, in schema/.',
      severity: 'error',
      from: { path: '^src/output/' },
      to: { path: '^src/api/' },
    },
    {
      name: 'output-names-schema-types-only',
      comment: "The schemas are values too (zod); validating a body is the command's step, before output/.",
      severity: 'error',
      from: { path: '^src/output/' },
      to: { path: '^src/schema/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'schema-stands-on-core',
      comment: 'schema/ holds the bodies\' zod schemas and types: below api/ and output/ alike, on core/ only.',
      severity: 'error',
      from: { path: '^src/schema/' },
      to: { path: '^src/', pathNot: '^src/(core|schema)/' },
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
      to: { path: '^src/', pathNot: '^src/(core|output|evidence|journal|schema)/' },
    },
    {
      name: 'completion-reads-the-tree',
      comment: 'completion/ walks the command tree it is given and reads the settings and the symbols cache.',
      severity: 'error',
      from: { path: '^src/completion/' },
      to: { path: '^src/', pathNot: '^src/(core|config|completion)/|^src/cmdutil/help-topics\\.ts$' },
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
      to: { path: '^src/', pathNot: '^src/(core|evidence|schema)/' },
    },
    {
      name: 'evidence-names-schema-types-only',
      comment: "The schemas are values too (zod); validating a body is the command's step, before evidence/.",
      severity: 'error',
      from: { path: '^src/evidence/' },
      to: { path: '^src/schema/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'journal-below-commands',
      comment:
        'journal/ records, settles and scores: it stands on evidence/ (Wilson), schema/ (the body types), api/ (candles), config/ (the lock, the private directory) and core/; it never renders (output/) nor reaches a command or cli/.',
      severity: 'error',
      from: { path: '^src/journal/' },
      to: { path: '^src/', pathNot: '^src/(core|config|api|evidence|journal|schema)/' },
    },
    {
      name: 'cli-is-not-a-command',
      comment: 'cli/ is the entry (main, the command tree); it reaches a command only through program.ts.',
      severity: 'error',
      from: { path: '^src/cli/', pathNot: '^src/cli/program\\.ts$' },
      to: { path: '^src/commands/' },
    },
    {
      name: 'nothing-below-imports-cli',
      comment: 'cli/ sits on top: only entry.ts and cli/ itself import it; what commands share lives in cmdutil/.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(cli/|entry\\.ts$|launch/)' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'cmdutil-below-commands',
      comment:
        'cmdutil/ holds what commands share (the run context, shared flags, input checks, the error report): commands import it, it imports no command, nor cli/, completion/, doctor/ or mock/.',
      severity: 'error',
      from: { path: '^src/cmdutil/' },
      to: { path: '^src/(commands|cli|completion|doctor|mock)/' },
    },
    {
      name: 'watch-is-handed-its-fetch',
      comment:
        'watch/ (the refresh loop, the screen, the stream) gets its fetch and render from the command: it imports output/, api/, schema/, core/ and config/, never a command or cli/.',
      severity: 'error',
      from: { path: '^src/watch/' },
      to: { path: '^src/', pathNot: '^src/(watch|output|api|schema|core|config)/' },
    },
    {
      name: 'watch-loads-only-to-watch',
      comment:
        'A command that does not watch must not load the watch (the start-up budget): outside watch/, it is reached by a dynamic import (cmdutil/watch-flags.ts runWatch) or for its types only.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/watch/' },
      to: { path: '^src/watch/', dependencyTypesNot: ['dynamic-import', 'type-only'] },
    },
    {
      name: 'mcp-serves-through-the-layers',
      comment:
        "mcp/ (the server behind `fcast mcp`) fetches through api/, computes with evidence/, reads the journal with journal/'s readers, checks input with cmdutil/, cleans text with output/'s sanitiser and says the comparison's verdict with output/compare-verdict.ts: never a command or cli/.",
      severity: 'error',
      from: { path: '^src/mcp/' },
      to: { path: '^src/', pathNot: '^src/(core|config|api|schema|evidence|journal|cmdutil|mcp)/|^src/output/(sanitize|compare-verdict)\\.ts$' },
    },
    {
      name: 'mcp-loads-only-to-serve',
      comment: 'No other command loads the MCP server (the start-up budget): outside mcp/, it is reached by a dynamic import or for its types only.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/mcp/' },
      to: { path: '^src/mcp/', dependencyTypesNot: ['dynamic-import', 'type-only'] },
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
        "A file written for people goes through core/sinks.ts (appendToFile, saveFile), which redacts it. The atomic write under it is reached directly only by config/atomic-write.ts (the config file's settings, the symbols cache; journal prune's byte-for-byte rewrite) and mock/kept.ts (the emulator's key hashes, which the redactor would mask); test/unit/output-boundary.test.ts holds every other fs write.",
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/core/sinks\\.ts$|^src/config/atomic-write\\.ts$|^src/mock/kept\\.ts$' },
      to: { path: '^src/core/atomic-write\\.ts$' },
    },
    {
      name: 'launch-stays-small',
      comment:
        "launch/ (what bin/fcast.js runs first, in every run: the fast paths, the stdio writer, the bundle's loader) is built into dist/launch.cjs, which every run compiles: it imports core/, the version document, help's colour rule, the GitHub Actions check, the environment's secrets and (the executable's) the TAB listing, and finds the bundle by its path at run time, never by an import.",
      severity: 'error',
      from: { path: '^src/launch/' },
      to: {
        path: '^src/',
        pathNot:
          '^src/(launch|core)/|^src/cli/(version|help-colour)\\.ts$|^src/config/env-secrets\\.ts$|^src/output/workflow-commands\\.ts$|^src/completion/tab\\.ts$',
      },
    },
    {
      name: 'nothing-imports-the-launcher',
      comment: 'launch/ sits above everything: bin/fcast.js and the executable run it; no module of src/ imports it.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/launch/' },
      to: { path: '^src/launch/' },
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
