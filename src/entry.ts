// What bin/fcast.js runs, as one module: scripts/build.js bundles it into dist/fcast.cjs.
export { realContext } from './context.js';
export { exitWhenFree } from './exit-guard.js';
export { main } from './main.js';
