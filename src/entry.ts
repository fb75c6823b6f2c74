// What bin/fcast.js runs, as one module: scripts/build.js bundles it into dist/fcast.cjs.
export { realContext } from './core/context.js';
export { exitWhenFree } from './cmdutil/exit-guard.js';
export { main } from './cli/main.js';
