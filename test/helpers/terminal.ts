// A small terminal for in-process tests of the watch board: it reads what fcast wrote to a
// terminal (text, cursor moves, line and screen clears, the alternate screen, cursor and wrap
// modes, colours ignored) and shows the screen a user would see, line by line.

export class VirtualTerminal {
  private main: string[][];
  private alt: string[][];
  private row = 0;
  private col = 0;
  private saved: [number, number] = [0, 0];
  altScreen = false;
  cursorVisible = true;
  autowrap = true;
  /** How many bytes each write() brought, in order. */
  readonly writes: string[] = [];

  constructor(
    public columns: number,
    public rows: number,
  ) {
    this.main = this.blank();
    this.alt = this.blank();
  }

  /** The window changed size: a real terminal reflows; this one starts blank, and fcast must redraw. */
  resize(columns: number, rows: number): void {
    this.columns = columns;
    this.rows = rows;
    this.main = this.blank();
    this.alt = this.blank();
    this.row = Math.min(this.row, rows - 1);
    this.col = Math.min(this.col, columns - 1);
  }

  private blank(): string[][] {
    return Array.from({ length: this.rows }, () => Array<string>(this.columns).fill(' '));
  }

  private get screen(): string[][] {
    return this.altScreen ? this.alt : this.main;
  }

  /** Feeds what fcast wrote since the last call. */
  feed(text: string): void {
    if (text === '') return;
    this.writes.push(text);
    for (let i = 0; i < text.length; i++) {
      const ch = text[i]!;
      if (ch === '\x1b' && text[i + 1] === '[') {
        const m = /^\x1b\[([?]?)([0-9;]*)([A-Za-z])/.exec(text.slice(i));
        if (!m) continue;
        this.csi(m[1]!, m[2]!, m[3]!);
        i += m[0].length - 1;
      } else if (ch === '\n') {
        this.row = Math.min(this.rows - 1, this.row + 1);
        this.col = 0;
      } else if (ch === '\r') {
        this.col = 0;
      } else {
        if (this.col >= this.columns) {
          if (!this.autowrap) {
            this.col = this.columns - 1;
          } else {
            this.row = Math.min(this.rows - 1, this.row + 1);
            this.col = 0;
          }
        }
        const line = this.screen[this.row];
        if (line) line[this.col] = ch;
        this.col++;
      }
    }
  }

  private csi(private_: string, params: string, final: string): void {
    const n = params.split(';').map((p) => (p === '' ? undefined : Number(p)));
    if (private_ === '?' && (final === 'h' || final === 'l')) {
      const on = final === 'h';
      if (n[0] === 1049) {
        // xterm's 1049 saves the cursor on entering and restores it on leaving.
        if (on && !this.altScreen) this.saved = [this.row, this.col];
        if (!on && this.altScreen) [this.row, this.col] = this.saved;
        this.altScreen = on;
        if (on) this.alt = this.blank();
      } else if (n[0] === 25) this.cursorVisible = on;
      else if (n[0] === 7) this.autowrap = on;
      return;
    }
    if (final === 'H') {
      this.row = Math.max(0, (n[0] ?? 1) - 1);
      this.col = Math.max(0, (n[1] ?? 1) - 1);
    } else if (final === 'K') {
      const line = this.screen[this.row];
      if (line) for (let c = this.col; c < this.columns; c++) line[c] = ' ';
    } else if (final === 'J') {
      if (n[0] === 2) {
        for (const line of this.screen) line.fill(' ');
      } else {
        for (let r = this.row; r < this.rows; r++) {
          const line = this.screen[r]!;
          for (let c = r === this.row ? this.col : 0; c < this.columns; c++) line[c] = ' ';
        }
      }
    }
  }

  /** The visible lines, trailing blanks trimmed. */
  lines(): string[] {
    return this.screen.map((l) => l.join('').trimEnd());
  }

  text(): string {
    return this.lines().join('\n');
  }
}
