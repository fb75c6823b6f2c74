// What `fcast doctor` loads, in one dynamic import: the checks, their exit code and their rendering.
export { runDoctor } from './checks.js';
export { exitCodeOf, type Check } from './check.js';
export { checksAsJson, renderChecks } from './render.js';
