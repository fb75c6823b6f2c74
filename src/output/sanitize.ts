// The one sanitiser for text that reaches the terminal: cell values, column names, keys,
// titles, messages. Server text must not be able to move the cursor, recolour the terminal,
// open a hyperlink or reverse the reading order of a line. Escape sequences go whole (CSI,
// OSC and the string commands DCS/SOS/PM/APC with their payload), every other C0/C1 control
// and every bidi control (U+061C, U+200E-F, U+202A-E, U+2066-9) one by one.
const ESCAPE_SEQUENCES =
  /\x1b(?:\[[0-?]*[ -/]*[@-~]|[\]PX^_][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?|[ -/]*[0-~])|[\x90\x98\x9d\x9e\x9f][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?|\x9b[0-?]*[ -/]*[@-~]/g;
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const LINE_BREAKS = /[\t\n\r\u2028\u2029]+/g;
const BLOCK_BREAKS = /\r\n?|[\u2028\u2029]/g;

/** For a single table cell, column name, key or line: newlines and tabs become one space. */
export function clean(text: unknown): string {
  return String(text).replace(ESCAPE_SEQUENCES, '').replace(CONTROLS, '').replace(LINE_BREAKS, ' ');
}

/** For multi-line text: newlines and tabs stay; a carriage return (which could overwrite a line) becomes a newline. */
export function cleanBlock(text: unknown): string {
  return String(text).replace(ESCAPE_SEQUENCES, '').replace(BLOCK_BREAKS, '\n').replace(CONTROLS, '');
}
