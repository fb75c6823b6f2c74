// Preloaded into every benchmarked process (fcast and baselines alike): on exit, writes the
// process's peak resident memory (KiB) and CPU time (user + system, microseconds) to the file
// named by FCAST_BENCH_USAGE.
const { writeFileSync } = require('node:fs');
const file = process.env.FCAST_BENCH_USAGE;
if (file)
  process.on('exit', () => {
    const usage = process.resourceUsage();
    writeFileSync(file, `${usage.maxRSS} ${usage.userCPUTime + usage.systemCPUTime}\n`);
  });
