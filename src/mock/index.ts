// The emulator's public face: `fcast mock` and the test suites start it through here.
export { startMock, parseFault, DEFAULT_SEED } from './server.js';
export { forgetKept, readKept } from './kept.js';
export type { MockOptions, MockServer, RecordedRequest, Fault } from './server.js';
export { FAULT_KINDS, type FaultKind } from './faults.js';
export { ATTRIBUTION } from './meta.js';
export { parseInstant, MAX_SPEED, type ClockSettings, type EmulatedClock } from './clock.js';
