// Preloaded into every benchmarked process (fcast and baselines alike): on exit, appends the
// process's peak resident memory in KiB to the file named by FCAST_BENCH_RSS.
const { appendFileSync } = require('node:fs');
const file = process.env.FCAST_BENCH_RSS;
if (file) process.on('exit', () => appendFileSync(file, `${process.resourceUsage().maxRSS}\n`));
