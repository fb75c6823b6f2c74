// The layers of ../shared/style.md, held by `npm run lint:deps`:
//   program -> commands/* -> api/ (client, endpoints, schemas) -> settings, errors, text
//                         -> evidence/ (pure)
//                         -> output/ (renderers)            -> domain types, text helpers
// A renderer takes parsed bodies, so output/ (and evidence/) may import the *types* of
// api/schemas.ts: those are the domain types. Nothing else of api/ is theirs to use.
// The evidence/ rules are warnings for now: style.md asks for it to be pure, issue 9 does not yet.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'only-program-registers-commands',
      comment: 'A command is reached through its registration in src/program.ts, never imported by another module.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/program\\.ts$' },
      to: { path: '^src/commands/' },
    },
    {
      name: 'nothing-imports-the-entry',
      comment:
        'main.ts and program.ts sit on top: only main.ts builds the program, and only entry.ts (what bin/fcast.js loads) imports main.ts.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(main|entry)\\.ts$' },
      to: { path: '^src/(main|program)\\.ts$' },
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
      comment: 'api/ knows settings types, errors and its own modules, not what uses it.',
      severity: 'error',
      from: { path: '^src/api/' },
      to: { path: '^src/(commands|evidence|completion|doctor|mock|gateway)/|^src/command\\.ts$' },
    },
    {
      name: 'settings-and-errors-are-the-floor',
      comment:
        'settings, keys, errors, domain, values and context sit under every layer (api/ calls requireKey, the one ' +
        'place that rule is written), so they import none of the layers.',
      severity: 'error',
      from: { path: '^src/(settings|keys|errors|domain|values|context)\\.ts$' },
      to: { path: '^src/[^/]+/|^src/(command|program|main)\\.ts$' },
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
      comment: 'The schemas are values too (zod); validating a body is the command\'s step, before output/.',
      severity: 'error',
      from: { path: '^src/output/' },
      to: { path: '^src/api/schemas\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'output-never-decides',
      comment: 'evidence/ computes rows once; output/ renders them, it does not call back into evidence/.',
      severity: 'error',
      from: { path: '^src/output/' },
      to: { path: '^src/(evidence|commands|completion|doctor|mock|gateway)/|^src/command\\.ts$' },
    },
    {
      name: 'evidence-is-pure',
      comment: 'evidence/ computes: it neither fetches nor renders.',
      severity: 'warn',
      from: { path: '^src/evidence/' },
      to: { path: '^src/(output|commands|completion|doctor|mock)/|^src/command\\.ts$' },
    },
    {
      name: 'evidence-never-fetches',
      comment: 'Of api/, evidence/ may name the schema types (import type), nothing more.',
      severity: 'warn',
      from: { path: '^src/evidence/' },
      to: { path: '^src/api/', pathNot: '^src/api/schemas\\.ts$' },
    },
    {
      name: 'evidence-names-schema-types-only',
      comment: 'The schemas are values too (zod); validating a body is the command\'s step, before evidence/.',
      severity: 'warn',
      from: { path: '^src/evidence/' },
      to: { path: '^src/api/schemas\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-circular',
      comment: 'A cycle makes two modules one; split what both need into a third.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
  ],
  options: {
    // Type-only imports count: they are how a layer names another's types, which the rules allow or not.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
