// Preloaded into every benchmarked process (fcast and baselines alike): on exit, writes to the
// file named by FCAST_BENCH_USAGE one line: peak resident memory (KiB), CPU time (user +
// system, microseconds), the builtin modules loaded after this preload, the JavaScript files
// read (bin/fcast.js, the launcher, the bundle, each chunk: require and the launcher's vm.Script loader both read
// through fs.readFileSync), their bytes (the source the run compiles or whose cache it
// deserializes), the bytes of the code caches read, then the files' names.
const fs = require('node:fs');
const file = process.env.FCAST_BENCH_USAGE;
if (file) {
  const builtinsBefore = process.moduleLoadList.length;
  const read = new Map();
  const readFileSync = fs.readFileSync;
  fs.readFileSync = function (path, ...rest) {
    const out = readFileSync.call(this, path, ...rest);
    if (typeof path === 'string' && /\.(c|m)?js(\.cache)?$/.test(path)) read.set(path, out.length);
    return out;
  };
  process.on('exit', () => {
    const usage = process.resourceUsage();
    const builtins = process.moduleLoadList.slice(builtinsBefore).filter((m) => m.startsWith('NativeModule ')).length;
    const sum = (cache) => [...read].filter(([p]) => p.endsWith('.cache') === cache).reduce((a, [, n]) => a + n, 0);
    const code = [...read.keys()].filter((p) => !p.endsWith('.cache'));
    const names = code.map((p) => p.split(/[\\/]/).slice(-2).join('/')).join(',');
    fs.writeFileSync(
      file,
      `${usage.maxRSS} ${usage.userCPUTime + usage.systemCPUTime} ${builtins} ${code.length} ${sum(false)} ${sum(true)} ${names || '-'}\n`,
    );
  });
}
