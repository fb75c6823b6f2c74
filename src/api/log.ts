// The port through which the API layer reports: retry announcements, the --verbose request
// log and shape warnings. The API never writes to a stream; the command layer wires this to
// stderr (an Output satisfies it as it is).
export interface ApiLog {
  /** A notice for people, e.g. a retry being waited. */
  note(message: string): void;
  /** Something off that did not stop the command. */
  warn(message: string): void;
  /** Only shown with --verbose. */
  debug(message: string): void;
}
