// How wide a terminal's lines may be: the width it reports, else 80 (a pipe or a file reports none, and some CI
// consoles and emulators report 0 columns).
export const DEFAULT_WIDTH = 80;

/** @example terminalWidth(process.stdout.columns) // 80 when stdout is not a terminal */
export function terminalWidth(columns: number | undefined): number {
  return columns !== undefined && columns > 0 ? columns : DEFAULT_WIDTH;
}
