// Text from the server must not be able to move the cursor, recolour the terminal or
// reverse the reading order of a line: escape sequences go whole, other controls one by one.
const ESCAPE_SEQUENCES = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])/g;
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
const LINE_BREAKS = /[\t\n\r]+/g;

/** For a single table cell or line: newlines and tabs go too. */
export function clean(text: unknown): string {
  return String(text).replace(ESCAPE_SEQUENCES, '').replace(CONTROLS, '').replace(LINE_BREAKS, ' ');
}

/** For multi-line text: newlines and tabs stay. */
export function cleanBlock(text: unknown): string {
  return String(text).replace(ESCAPE_SEQUENCES, '').replace(CONTROLS, '');
}
