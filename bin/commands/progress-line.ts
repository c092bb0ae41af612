// The CLI's progress output (toolroom eval, toolroom index): a bar, on one line that a terminal
// redraws in place.

/** How a bar looks: `width` cells, `done` drawn for the part done and `todo` for the rest. */
export interface BarStyle {
  width: number;
  done: string;
  todo: string;
}

/** `done` of `total` as a bar of `style.width` cells, rounded to the nearest cell; all `todo` when total is 0. */
export function progressBar(done: number, total: number, style: BarStyle): string {
  const share = total > 0 ? Math.min(1, Math.max(0, done / total)) : 0;
  const filled = Math.round(share * style.width);
  return `${style.done.repeat(filled)}${style.todo.repeat(style.width - filled)}`;
}

/** Where progress goes: process.stderr, or a test's stand-in. */
export interface ProgressOut {
  write(text: string): unknown;
  isTTY?: boolean;
}

/**
 * One line that a terminal redraws in place (each draw clears the last). Elsewhere — a pipe, a CI
 * log — it draws nothing, as carriage returns would pile up there; `tty` tells a caller that
 * writes plain lines instead.
 */
export function progressLine(out: ProgressOut) {
  const tty = out.isTTY === true;
  let drawn = false;
  return {
    tty,
    draw(text: string) {
      if (!tty) return;
      out.write(`\r\x1b[2K${text}`);
      drawn = true;
    },
    /** Ends a drawn line, so that what follows starts on a line of its own. */
    end() {
      if (drawn) out.write("\n");
      drawn = false;
    },
  };
}
