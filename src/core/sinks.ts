// The output boundary: every byte fcast writes for people leaves through this module, and
// passes the redactor on its way. stdout and stderr are wrapped here (main does it once per
// run); a file written for people goes through `appendToFile` ($GITHUB_STEP_SUMMARY,
// $GITHUB_OUTPUT), `saveFile` (`--save`) or `redactText` (the journal's lines, appended by
// journal/journal-files.ts under its own rules). test/unit/output-boundary.test.ts fails when any other
// module writes to a stream or a file, save the few internal files it lists with its reason.
import { appendFileSync } from 'node:fs';
import { writeAtomically } from './atomic-write.js';
import type { IO, Writer } from './context.js';
import { Redactor } from './redact.js';

/**
 * The redactors of the runs in progress: one in a process (main opens it), several when tests
 * run main in-process side by side. A file is redacted by all of them; with none, by one that
 * knows no key and masks key-shaped text, so no path to a file skips redaction.
 */
const open = new Set<Redactor>();
// Pure: a bundle that never redacts a file (the launcher's, which takes only errors.ts's words) leaves it out.
const bare = /* @__PURE__ */ new Redactor();

/** Makes `redactor` redact every file written until the returned close is called. */
export function openBoundary(redactor: Redactor): () => void {
  open.add(redactor);
  return () => open.delete(redactor);
}

/**
 * `text` with every key known to a run in progress masked: for a file fcast writes for people,
 * and for text about to be escaped or reshaped for a reader (the runner's %-escapes of a
 * workflow command, a step output's name, Markdown), which the redactor would no longer know
 * as a key's spelling once escaped.
 */
export function redactText(text: string): string {
  if (open.size === 0) return bare.redact(text);
  let out = text;
  for (const redactor of open) out = redactor.redact(out);
  return out;
}

/** Appends `text`, redacted, to a file a CI runner shows or reads ($GITHUB_STEP_SUMMARY, $GITHUB_OUTPUT). */
export function appendToFile(path: string, text: string): void {
  appendFileSync(path, redactText(text));
}

/** Replaces the file at `path` with `text`, redacted, atomically (`--save`). */
export function saveFile(path: string, text: string, mode: number): void {
  writeAtomically(path, redactText(text), mode);
}

/** A writer that redacts every string written to it; everything else is the stream's own. */
function redactingWriter(stream: Writer, redactor: Redactor): Writer {
  return new Proxy(stream, {
    get(target, prop, receiver) {
      if (prop === 'write') {
        return (chunk: unknown, ...rest: unknown[]) =>
          (target.write as (...a: unknown[]) => unknown)(
            typeof chunk === 'string' ? redactor.redact(chunk) : chunk,
            ...rest,
          );
      }
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** stdout and stderr redacted by `redactor`: what main hands every command. */
export function redactedIO(io: IO, redactor: Redactor): IO {
  // stdin is passed through as a getter: process.stdin is dear to build
  // (docs/decisions/2026-11-27-startup.md), and most commands never read it.
  return {
    stdout: redactingWriter(io.stdout, redactor),
    stderr: redactingWriter(io.stderr, redactor),
    ...(io.releaseStdout && { releaseStdout: io.releaseStdout }),
    get stdin() {
      return io.stdin;
    },
  };
}
