// The characters the journal's export writes as visible escapes (\uXXXX, four lower-case hex
// digits) instead of as they are: every C0 control but tab and newline (CR included), DEL and
// the C1 controls, the bidi controls (U+061C, U+200E-F, U+202A-E, U+2066-9), the line and
// paragraph separators, and lone surrogates (UTF-8 cannot carry one: it would arrive as U+FFFD).
// The sanitiser (output/sanitize.ts) removes the same controls from what other commands print;
// the export keeps them, visibly, so that an import gives them back (core/exact-text.ts,
// core/tsv.ts).

export const INVISIBLE_SOURCE =
  '[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069]' +
  '|[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]';

/** One UTF-16 code unit as \uXXXX. */
export const hexEscape = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

const WRITTEN_AS_ESCAPE = new RegExp(`^(?:${INVISIBLE_SOURCE}|\\\\)$`);

/**
 * Every \uXXXX (lower-case hex) that the export writes back to its code unit: an invisible
 * character, or the backslash of a \u in the text (written \u005c). Any other \uXXXX is text
 * (a CSV written by hand, or before these escapes) and stays as it is.
 */
export const readHexEscapes = (text: string): string =>
  text.includes('\\u')
    ? text.replace(/\\u([0-9a-f]{4})/g, (written, h: string) => {
        const unit = String.fromCharCode(Number.parseInt(h, 16));
        return WRITTEN_AS_ESCAPE.test(unit) ? unit : written;
      })
    : text;
