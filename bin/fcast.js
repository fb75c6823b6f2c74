#!/usr/bin/env node
// The only place that ends the process. Ctrl-C (or SIGTERM, SIGHUP) aborts the running command,
// which ends with exit 130 (`fcast mock` stops cleanly instead); a second one ends at once.
//
// CommonJS (bin/package.json), unlike the rest of fcast: the two commands run most often,
// `--version` and the TAB of the completion scripts, are answered here without starting
// Node's ES module loader (~8 ms, a fifth of `node -e 0`), commander or the command tree;
// everything else runs from the bundle split into chunks, dist/split/ (scripts/build.js), of
// which a run loads the entry and the chunks its command runs.
'use strict';
const { statSync } = require('node:fs');
const argv = process.argv.slice(2);

/**
 * Node's CommonJS wrapper (what `Module.wrap` adds), written out: `require('node:module')`
 * would load Node's ES module loader and its source-map support with it (~2 ms of CPU).
 * scripts/build.js makes the code cache over the same text, through wrappedLoader below.
 */
const WRAPPER = ['(function (exports, require, module, __filename, __dirname) { ', '\n});'];

// The plain words for a code: the same as src/core/errors.ts's SYSTEM_REASONS says them, for
// every code both list (test/unit/errors.test.ts holds the two equal; this file cannot import TS).
const WRITE_FAILURES = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is exceeded',
  EFBIG: 'the file is too large',
  EBADF: 'it is closed',
  EIO: 'an I/O error',
  EROFS: 'a read-only file system',
};

/** What stdioWriter writes to a pipe or a socket itself before it hands over to Node's stream. */
const SYNC_BYTES = 16 * 1024;

/**
 * Exit 3 (ExitCode.Config, "auth or config"): output that cannot be written is a fault of the
 * place the user sends it (a full disk, a closed descriptor), to be fixed there like an
 * unwritable config file or journal directory; not a bug of fcast (1), and not the service (6).
 */
const WRITE_FAILED = 3;

// Run as the program; required (by scripts/build.js, for the loader below, and by the bench's
// floor: the entry loaded as a command loads it), it only lends them.
if (require.main === module) {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    writeOut(`${require('../package.json').version}\n`);
  } else if (argv.length === 2 && argv.includes('--json') && (argv.includes('--version') || argv.includes('-V'))) {
    // As src/cli/version.ts writes it.
    const about = {
      fcast: require('../package.json').version,
      node: process.versions.node,
      platform: `${process.platform}-${process.arch}`,
      // The standalone executable: its Node is built in (scripts/build-sea.js).
      ...(process.getBuiltinModule?.('node:sea')?.isSea() && { node_built_in: true }),
    };
    writeOut(`${JSON.stringify(about, null, 2)}\n`);
  } else if (argv.length === 1 && argv[0] === '__complete-symbols' && fastTab()) {
    // Listed by dist/tab.cjs.
  } else if (argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') && fastHelp()) {
    // Written from dist/split/help.txt.
  } else {
    run().catch((err) => {
      process.stderr.write(`fcast: internal error: ${err?.message ?? err}\n`);
      process.exit(1);
    });
  }
} else {
  module.exports = { WRAPPER, wrappedLoader, freshBundle, loadSplit };
}

/**
 * fcast's version, from the package.json beside bin/ (as the --version fast path reads it): a
 * require, which the standalone executable's bundle inlines (it has no package.json beside it).
 */
function packageVersion() {
  return require('../package.json').version;
}

/** The TAB listing, from its bundle; false (main answers) when the bundle is missing or stale. */
function fastTab() {
  const tab = freshBundle('tab.cjs');
  if (tab === undefined) return false;
  require(tab).completeSymbols(writeOut);
  return true;
}

/**
 * The root's help (`fcast --help`, `-h`, `help`) as main prints it on a pipe or to a file: 80
 * columns, no colour. `npm run build` writes it (dist/split/help.txt) from the bundle it has
 * just made; test/e2e/help-tree.test.ts holds it to what the whole command tree prints. False
 * (main answers) for a terminal (its width), forced colour (main's hasColors), under GitHub
 * Actions (main's filter of workflow commands), when the text is missing or stale, and when a
 * secret of the environment shows in it (mayShowSecret): main's redactor would mask it there.
 */
function fastHelp() {
  const { FORCE_COLOR, CLICOLOR_FORCE, NO_COLOR, GITHUB_ACTIONS } = process.env;
  if (GITHUB_ACTIONS === 'true' || CLICOLOR_FORCE !== undefined) return false;
  if (!NO_COLOR && FORCE_COLOR && FORCE_COLOR !== '0' && FORCE_COLOR !== 'false') return false;
  const fs = require('node:fs');
  let stat;
  try {
    stat = fs.fstatSync(1);
  } catch {
    return false;
  }
  if (!(stat.isFIFO() || stat.isSocket() || stat.isFile())) return false;
  const help = freshBundle('split/help.txt');
  if (help === undefined) return false;
  const text = fs.readFileSync(help);
  if (mayShowSecret(text.toString('latin1').toLowerCase())) return false;
  writeOut(text);
  return true;
}

/**
 * Whether a secret the environment gives (a key, a proxy URL's password: what
 * config/known-secrets.ts hands the redactor) or any 12-character piece of it is in `help`
 * (lower case), as the redactor would find it. A key in the config file has the keys' shape
 * (`..._ag_` and hex), which the help never holds.
 */
function mayShowSecret(help) {
  const env = process.env;
  const secrets = [env.FCAST_API_KEY, env.FCAST_GATEWAY_KEY];
  for (const name of ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY']) {
    const value = env[name];
    if (!value) continue;
    try {
      const url = new URL(value.includes('://') ? value : `http://${value}`);
      if (url.password) secrets.push(url.password, decodeURIComponent(url.password));
    } catch {
      // Not a URL (or not decodable): fcast refuses it before any request.
      return true;
    }
  }
  for (const raw of secrets) {
    const secret = raw?.trim().toLowerCase();
    if (!secret) continue;
    if (secret.length <= 12) {
      if (help.includes(secret)) return true;
      continue;
    }
    for (let i = 0; i + 12 <= secret.length; i++) if (help.includes(secret.slice(i, i + 12))) return true;
  }
  return false;
}

/**
 * A bundle of dist/, when `npm run build` made it after tsc's last output: a bare `tsc -b`
 * or `tsc -p .` (the habit while developing) leaves it stale, and then tsc's modules run.
 * In a clone only: the npm package ships the bundles without tsc's output or its build info,
 * so an installed fcast always runs the bundle (and the executable has no such check).
 */
function freshBundle(bundle) {
  const dist = require('node:path').join(__dirname, '..', 'dist');
  const built = statSync(`${dist}/${bundle}`, { throwIfNoEntry: false });
  const compiled = statSync(`${dist}/tsconfig.tsbuildinfo`, { throwIfNoEntry: false });
  return built && (!compiled || built.mtimeMs >= compiled.mtimeMs) ? `${dist}/${bundle}` : undefined;
}

/**
 * The split bundle, each file compiled with the V8 code cache that `npm run build` left beside
 * it (`X.cjs.cache`): compiling is half of what loading code costs. A cache's first line names
 * its file's size and time and the Node version it was made for. Without a valid cache of the
 * entry (the npm package ships none) the files are required, through Node's own compile cache
 * where there is one; V8 itself refuses a cache of another V8 or other flags. The files ask
 * for builtins, for dist/undici.cjs by its absolute path, and for one another as
 * './chunk-….cjs': this loader serves those from the same directory, once each.
 */
function loadSplit(entry) {
  const entryCache = codeCache(entry);
  if (entryCache === undefined) return requireCompiled(entry);
  const fs = require('node:fs');
  // The entry's cache, read once.
  const cachedData = (file) => (file === entry ? entryCache : codeCache(file));
  const load = wrappedLoader({ read: (file) => fs.readFileSync(file, 'utf8'), cachedData, require });
  return load(entry);
}

/**
 * A loader of CommonJS files as Node wraps them (WRAPPER), each compiled by vm.Script with
 * `cachedData(file)` (a code cache, or undefined) and run once: its require serves './…'
 * from the file's own directory through the loader, and anything else through `require`.
 * The one loader of the split bundle here, of the build's warm-up (scripts/build.js, which
 * gives `scripts`: each file's Script, compiled once for all its loaders, to make the caches
 * from) and of the standalone executable's assets (scripts/build-sea.js).
 */
function wrappedLoader({ read, cachedData = () => undefined, require: other, scripts }) {
  const { Script } = require('node:vm');
  const modules = new Map();
  function load(file) {
    let module = modules.get(file);
    if (module) return module.exports;
    module = { exports: {} };
    modules.set(file, module);
    const dir = file.slice(0, file.lastIndexOf('/'));
    const script =
      scripts?.get(file) ??
      new Script(WRAPPER[0] + read(file) + WRAPPER[1], { filename: file, cachedData: cachedData(file) });
    scripts?.set(file, script);
    const chunkRequire = (spec) => (spec.startsWith('./') ? load(`${dir}/${spec.slice(2)}`) : other(spec));
    script.runInThisContext().call(module.exports, module.exports, chunkRequire, module, file, dir);
    return module.exports;
  }
  return load;
}

/** The code cache `npm run build` made for this file and this Node, without its header line. */
function codeCache(file) {
  const stat = statSync(file, { throwIfNoEntry: false });
  if (!stat) return undefined;
  let cache;
  try {
    cache = require('node:fs').readFileSync(`${file}.cache`);
  } catch (err) {
    if (err?.code === 'ENOENT') return undefined;
    throw err;
  }
  const header = Buffer.from(`fcast code cache ${stat.size} ${stat.mtimeMs} ${process.version}\n`);
  return cache.subarray(0, header.length).equals(header) ? cache.subarray(header.length) : undefined;
}

/**
 * Node's own compile cache for what loads next (22.1+; none on Node 20), written by the first
 * run, of the code compiled while loading (docs/decisions/2026-11-25-code-cache.md). For a
 * bundle without the build's cache, as the npm package is. Kept in the user's cache directory,
 * never in Node's default of os.tmpdir(): a cache another user can create or write is code
 * another user chooses. NODE_COMPILE_CACHE (the user's own choice) and
 * NODE_DISABLE_COMPILE_CACHE=1 are Node's, and win.
 */
function compileCached() {
  const { enableCompileCache } = require('node:module');
  const { env } = process;
  if (!enableCompileCache || env.NODE_DISABLE_COMPILE_CACHE || env.NODE_COMPILE_CACHE) return;
  const dir = ownCacheDir();
  if (dir) enableCompileCache(dir);
}

/**
 * <user cache dir>/fcast/compile-cache ($XDG_CACHE_HOME, else ~/.cache; ~/Library/Caches on
 * macOS; %LOCALAPPDATA% on Windows), created 0700; undefined (no cache) when it, or the fcast
 * directory above it, is not a directory of this user's that no one else can write, or when
 * the cache directory itself may be replaced by others (writable by them without the sticky bit).
 */
function ownCacheDir() {
  const { env, platform } = process;
  const home = env.HOME || require('node:os').homedir();
  const xdg = env.XDG_CACHE_HOME?.startsWith('/') ? env.XDG_CACHE_HOME : undefined;
  const base =
    platform === 'win32'
      ? env.LOCALAPPDATA
      : platform === 'darwin'
        ? `${home}/Library/Caches`
        : (xdg ?? `${home}/.cache`);
  if (!base) return undefined;
  const ours = `${base}/fcast`;
  const dir = `${ours}/compile-cache`;
  const fs = require('node:fs');
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (platform === 'win32') return dir;
    const uid = process.getuid();
    const above = fs.statSync(base);
    if ((above.mode & 0o002) !== 0 && (above.mode & 0o1000) === 0) return undefined;
    for (const level of [ours, dir]) {
      const info = fs.lstatSync(level);
      if (!info.isDirectory() || info.uid !== uid || (info.mode & 0o022) !== 0) return undefined;
    }
    return dir;
  } catch {
    return undefined;
  }
}

function requireCompiled(file) {
  compileCached();
  return require(file);
}

/**
 * The fast paths write to fd 1 directly: building process.stdout (a socket object for a
 * pipe) costs more CPU than everything else they do.
 */
function writeOut(text) {
  const fs = require('node:fs');
  let rest = Buffer.from(text);
  try {
    while (rest.length > 0) rest = rest.subarray(fs.writeSync(1, rest));
  } catch (err) {
    // A non-blocking pipe that is full: let the stream queue the rest. A reader that left is no error.
    if (err?.code === 'EAGAIN') process.stdout.write(rest);
    else if (err?.code !== 'EPIPE') {
      process.stderr.write(writeFailure(err));
      process.exitCode = WRITE_FAILED;
    }
  }
}

/** The one line for stdout refusing the data (a full disk, a closed descriptor): the fast paths and main alike. */
function writeFailure(err) {
  return `fcast: cannot write the output to stdout: ${WRITE_FAILURES[err?.code] ?? err?.code ?? 'unknown error'}\n`;
}

async function run() {
  const bundle = freshBundle('split/fcast.cjs');
  if (!bundle) compileCached();
  // exitWhenFree from the same module graph as main: its hold is process-wide state.
  const { realContext, main, exitWhenFree } = bundle ? loadSplit(bundle) : await import('../dist/entry.js');

  // undici (loaded only behind a proxy) parses HTTP with llhttp compiled to WebAssembly. V8
  // compiles it twice: a quick baseline (Liftoff), then an optimised tier in background
  // threads that the process must join before it exits. A CLI's few short responses never
  // need the optimised parser. Set for this process only, before anything loads undici, only
  // when a proxy variable is set (the only way undici loads: node:v8 itself costs ~8 ms), and
  // after the bundle is compiled: V8 refuses a code cache made under other flags.
  if (Object.keys(process.env).some((name) => /^https?_proxy$/i.test(name))) {
    require('node:v8').setFlagsFromString('--liftoff-only');
  }

  const interrupt = new AbortController();
  // Every request in flight listens to it (predict runs twenty at once): not a leak.
  require('node:events').setMaxListeners(0, interrupt.signal);
  // One listener for good: between a `once` firing and the next being added, a signal would
  // find none and kill the process outright.
  let signals = 0;
  const onSignal = () => {
    if (++signals === 1) interrupt.abort();
    // Unless register holds a new key not yet printed and saved: then as soon as it is.
    else exitWhenFree(() => process.exit(130));
  };
  // SIGHUP too (the terminal closed): a watch gives the terminal back and register finishes
  // saving a new key, where Node's default would end the process on the spot.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, onSignal);

  // `fcast demo | head -3`: the reader left; that is not an error worth a stack trace. A full
  // disk or a closed descriptor is worth one line (on stderr, when that is not what failed),
  // and exit 3, since the data did not arrive.
  let writeFailed = false;
  const onWriteError = (fd, err) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    // The command may end before the line is out: its own exit code must not win then.
    writeFailed = true;
    if (fd === 2) process.exit(WRITE_FAILED);
    stderr.writer.write(writeFailure(err));
    stderr.flushed().then(() => process.exit(WRITE_FAILED));
  };
  const stdout = stdioWriter(1, onWriteError);
  const stderr = stdioWriter(2, onWriteError);
  // Flushes stdout and lets go of it (`fcast mock --print-env`): Node never closes fd 1 itself,
  // so it is closed here and /dev/null takes its number for later writes.
  const releaseStdout = () =>
    stdout.flushed().then(() => {
      const fs = require('node:fs');
      fs.closeSync(1);
      fs.openSync('/dev/null', 'w');
    });
  const stdio = { stdout: stdout.writer, stderr: stderr.writer, releaseStdout };

  const ended = await main(argv, realContext(interrupt.signal, stdio, packageVersion()));
  // A failed write to a file (SyncWriteStream) reports its error on the next tick: let it.
  await new Promise((resolve) => setImmediate(resolve));
  const code = () => (writeFailed ? WRITE_FAILED : ended);
  process.exitCode = code();
  // Leave as soon as the output is flushed: nothing the command left behind (a keep-alive
  // socket, a compiler thread) may hold the process.
  await Promise.all([stdout.flushed(), stderr.flushed()]);
  process.exit(code());
}

/**
 * What main writes to fd 1 or 2, and a promise of it being written. On a pipe, a socket or a
 * file: fs.writeSync to the descriptor, as the fast paths write, without building Node's
 * stream (for a pipe, a socket object and the net and stream modules: ~10 ms of CPU, more than
 * the rest of a short command's own work). Node's stream (process.stdout, process.stderr) once
 * anything asks for it, and from the start for a terminal (its size, its events) or anything
 * else (a closed descriptor, /dev/full): from then on every write goes through it, in order.
 * A write error reaches `onError` on the next tick, as the stream's 'error' event would.
 */
function stdioWriter(fd, onError) {
  const fs = require('node:fs');
  const name = fd === 1 ? 'stdout' : 'stderr';
  let stream;
  const built = (s) => {
    stream = s;
    stream.on('error', (err) => onError(fd, err));
    return stream;
  };
  // process.stdout is a getter that builds the stream on first use: whoever uses it first
  // (this writer, an emulator's log), the writer goes through it from then on.
  const own = Object.getOwnPropertyDescriptor(process, name);
  const stat = (() => {
    try {
      return fs.fstatSync(fd);
    } catch {
      return undefined;
    }
  })();
  const plain = stat !== undefined && (stat.isFIFO() || stat.isSocket() || stat.isFile());
  if (!plain || typeof own?.get !== 'function') {
    const node = built(process[name]);
    return { writer: node, flushed: () => flushed(node) };
  }
  Object.defineProperty(process, name, {
    configurable: true,
    enumerable: own.enumerable,
    get() {
      const node = stream ?? built(own.get.call(process));
      Object.defineProperty(process, name, { ...own, get: () => node });
      return node;
    },
  });
  let failed = false;
  // A write to a pipe or a socket whose reader lags blocks until it reads, where Node's stream
  // queues it and the event loop goes on (an emulator's log, a watch's lines): past the first
  // SYNC_BYTES, which a pipe's buffer (64 KiB) holds whatever the reader does, the stream.
  let room = stat.isFile() ? Number.POSITIVE_INFINITY : SYNC_BYTES;
  const writer = {
    fd,
    isTTY: false,
    write(chunk) {
      if (stream !== undefined) return stream.write(chunk);
      if (failed) return false;
      let rest = Buffer.from(chunk);
      room -= rest.length;
      if (room < 0) return process[name].write(rest);
      try {
        while (rest.length > 0) rest = rest.subarray(fs.writeSync(fd, rest));
      } catch (err) {
        // A non-blocking pipe that is full: the stream queues the rest, and all that follows.
        if (err?.code === 'EAGAIN') return process[name].write(rest);
        failed = true;
        process.nextTick(onError, fd, err);
        return false;
      }
      return true;
    },
  };
  return { writer, flushed: () => (stream === undefined ? Promise.resolve() : flushed(stream)) };
}

/** Resolves when what is still queued on the stream is written. */
function flushed(stream) {
  // Only what is still queued: an empty write to a full device fails (ENOSPC) like any other.
  return stream.writableLength === 0 ? Promise.resolve() : new Promise((resolve) => stream.write('', resolve));
}
