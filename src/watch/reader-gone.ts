// Whether anyone still reads the pipe on stdout. `fcast demo --watch --json | head -1` should end
// as soon as head does, not at the next refresh a minute later, when a write would first fail:
// the shell waits for every process of a pipeline. Node cannot poll a pipe's write end (libuv
// refuses to read a write-only pipe, and a write of nothing succeeds whoever listens), so on
// Linux the readers are found in /proc: the processes of our session (a pipeline's are) that
// hold the pipe open for reading. While any of them holds it, a second's check is a readlink;
// when all have let go, the session is searched once more before the pipe counts as closed.
// Where that cannot be known (not Linux, not a pipe, a reader outside the session or behind a
// /proc we may not read), it never says closed: the next write finds out, as before.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

interface Holder {
  pid: string;
  fd: string;
}

/** A check that says whether the pipe on `fd` has lost its last reader; undefined when that cannot be known. */
export function pipeReaderCheck(fd: number, platform: NodeJS.Platform): (() => boolean) | undefined {
  if (platform !== 'linux') return undefined;
  const pipe = linkOf('self', String(fd));
  if (pipe === undefined || !pipe.startsWith('pipe:')) return undefined;
  const session = sessionOf('self');
  if (session === undefined) return undefined;
  const self = String(process.pid);
  let holders = readersOf(pipe, session, self);
  if (holders === undefined || holders.length === 0) return undefined;
  return () => {
    holders = holders!.filter((h) => holds(h, pipe));
    if (holders.length > 0) return false;
    const again = readersOf(pipe, session, self);
    if (again === undefined) return false;
    holders = again;
    return again.length === 0;
  };
}

function linkOf(pid: string, fd: string): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/fd/${fd}`);
  } catch {
    return undefined;
  }
}

/** The session id: the sixth field of /proc/PID/stat, counted after the command's closing parenthesis. */
function sessionOf(pid: string): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[3];
  } catch {
    return undefined;
  }
}

/** Whether the descriptor still is the pipe, open for reading (O_RDONLY or O_RDWR). */
function holds(h: Holder, pipe: string): boolean {
  if (linkOf(h.pid, h.fd) !== pipe) return false;
  try {
    const flags = /flags:\s*([0-7]+)/.exec(readFileSync(`/proc/${h.pid}/fdinfo/${h.fd}`, 'utf8'))?.[1];
    return flags !== undefined && (Number.parseInt(flags, 8) & 3) !== 1;
  } catch {
    return false;
  }
}

/** The session's readers of the pipe; undefined when some process of the session could not be looked into. */
function readersOf(pipe: string, session: string, self: string): Holder[] | undefined {
  const found: Holder[] = [];
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid) || pid === self || sessionOf(pid) !== session) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue; // it has just ended
      return undefined;
    }
    for (const fd of fds) if (holds({ pid, fd }, pipe)) found.push({ pid, fd });
  }
  return found;
}
