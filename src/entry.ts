// What the launcher (src/launch/) runs, as one module: scripts/build.js bundles it into
// dist/split/ and dist/fcast.cjs; src/launch/install.ts's Entry is its shape.
export { realContext } from './core/context.js';
export { exitWhenFree } from './cmdutil/exit-guard.js';
export { main } from './cli/main.js';
