// Renders the results table on stdout: one titled section per measurement, aligned columns, units in the headers.

export interface Section {
  title: string;
  columns: string[];
  rows: (string | number)[][];
  /** Lines printed under the table (warnings, what a number includes). */
  notes?: string[];
}

export function formatSection(section: Section): string {
  const cells = [section.columns, ...section.rows.map((row) => row.map(String))];
  const widths = section.columns.map((_, column) => Math.max(...cells.map((row) => (row[column] ?? "").length)));
  const line = (row: string[]) =>
    row
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join("  ");
  const rule = widths.map((width) => "-".repeat(width)).join("  ");
  const notes = (section.notes ?? []).map((note) => `  ${note}`);
  return [`## ${section.title}`, line(cells[0]!), rule, ...cells.slice(1).map(line), ...notes].join("\n");
}

/** Seconds with two decimals, from milliseconds. */
export const seconds = (ms: number): string => (ms / 1000).toFixed(2);
/** Milliseconds with one decimal. */
export const millis = (ms: number): string => ms.toFixed(1);
