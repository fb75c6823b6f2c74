// The few escape sequences the board needs, written once here rather than taken from
// ansi-escapes or log-update: log-update redraws by erasing every line of the previous frame
// (the flicker this board avoids) and brings cli-cursor and signal-exit, whose own signal
// handlers would race the launcher's (src/launch/run.ts); ansi-escapes would replace the ten constants below with
// a dependency. Nothing here is loaded by a command that does not watch.

const CSI = '\x1b[';

export const ansi = {
  /** The alternate screen (xterm's 1049: saves the cursor and the shell's screen, restored on leaving). */
  enterAltScreen: `${CSI}?1049h`,
  leaveAltScreen: `${CSI}?1049l`,
  hideCursor: `${CSI}?25l`,
  showCursor: `${CSI}?25h`,
  /** No line wrap at the right margin: a line one cell too long must not push the board down. */
  noWrap: `${CSI}?7l`,
  wrap: `${CSI}?7h`,
  /** Synchronised output (mode 2026): a frame shows whole or not at all; terminals without it ignore it. */
  beginFrame: `${CSI}?2026h`,
  endFrame: `${CSI}?2026l`,
  resetColours: `${CSI}0m`,
  bell: '\x07',
  clearScreen: `${CSI}2J`,
  /** Clears from the cursor to the end of the line. */
  clearLineEnd: `${CSI}K`,
  /** Clears from the cursor to the end of the screen. */
  clearScreenEnd: `${CSI}J`,
  /** Moves the cursor to a row and column, counted from 1. */
  moveTo: (row: number, column = 1) => `${CSI}${row};${column}H`,
};

/** SGR sequences (colours), the only escapes a rendered line holds: the sanitiser removed the server's. */
const SGR = /\x1b\[[0-9;]*m/y;

/**
 * A rendered line cut to `width` terminal cells (colours kept, a colour reset after a cut), so
 * that no line of the board can wrap, and the cells it takes; `cellWidth` measures one character.
 */
export function fitLine(
  line: string,
  width: number,
  cellWidth: (point: number) => number,
): { text: string; cells: number } {
  let used = 0;
  let i = 0;
  let coloured = false;
  while (i < line.length) {
    if (line.charCodeAt(i) === 0x1b) {
      SGR.lastIndex = i;
      const m = SGR.exec(line);
      if (m) {
        coloured = true;
        i += m[0].length;
        continue;
      }
    }
    const point = line.codePointAt(i)!;
    const w = cellWidth(point);
    if (used + w > width) return { text: `${line.slice(0, i)}${coloured ? ansi.resetColours : ''}`, cells: used };
    used += w;
    i += point > 0xffff ? 2 : 1;
  }
  return { text: line, cells: used };
}
