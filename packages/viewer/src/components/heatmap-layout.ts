// The category heat map's layout for the width it has: category names in a column on the left, a column of cells per
// candidate, whose names stand above their columns when they fit and lean at 40° otherwise (with the room that takes
// above and to the right), and a second line in each cell for its CI when the cell is wide enough.

export interface HeatmapLayout {
  /** The drawing's size: at least the width given, wider when the cells need more. */
  width: number;
  height: number;
  /** Where the first cell starts. */
  left: number;
  top: number;
  cellWidth: number;
  cellHeight: number;
  /** The candidates' names lean (they are wider than a cell). */
  rotated: boolean;
  /** The room a candidate's name has (it is shortened to fit). */
  columnLabelWidth: number;
  /** The cells are wide enough for a second line (the CI). */
  details: boolean;
}

export const RANGE_FONT = 10;
const MIN_CELL = 56;
const MAX_CELL = 130;
const MAX_ROW_LABEL = 180;
const MAX_COLUMN_LABEL = 240;
const LEAN = (40 * Math.PI) / 180;
/** The widest CI a cell writes. */
const WIDEST_RANGE = "100.0–100.0";

/**
 * `measure(text, fontSize?)`: the drawn width of a text (label-layout's measureText in the page).
 * @example heatmapLayout(640, ["speed"], ["p/a", "p/b"], measureText, 15).cellWidth // 130
 */
export function heatmapLayout(
  width: number,
  categories: readonly string[],
  candidates: readonly string[],
  measure: (text: string, fontSize?: number) => number,
  lineHeight: number,
): HeatmapLayout {
  const widest = (texts: readonly string[]) => Math.max(0, ...texts.map((text) => measure(text)));
  const left = Math.max(Math.min(widest(categories), MAX_ROW_LABEL), 40) + 14;
  const count = Math.max(candidates.length, 1);
  const cellWidth = Math.round(Math.min(MAX_CELL, Math.max(MIN_CELL, (width - left - 8) / count)));
  const details = measure(WIDEST_RANGE, RANGE_FONT) <= cellWidth - 8;
  const cellHeight = details ? 44 : 34;
  const rotated = widest(candidates) > cellWidth - 6;
  const columnLabelWidth = rotated ? Math.min(widest(candidates), MAX_COLUMN_LABEL) : cellWidth - 6;
  const top = Math.ceil(rotated ? columnLabelWidth * Math.sin(LEAN) + lineHeight + 10 : lineHeight + 12);
  const cellsRight = left + count * cellWidth;
  // A leaning name reaches right of its column by its width along the lean.
  const reach = rotated
    ? Math.max(
        ...candidates.map(
          (candidate, column) =>
            left +
            column * cellWidth +
            cellWidth / 2 -
            4 +
            Math.min(measure(candidate), MAX_COLUMN_LABEL) * Math.cos(LEAN),
        ),
      )
    : cellsRight;
  return {
    width: Math.ceil(Math.max(width, cellsRight + 8, reach + 6)),
    height: top + categories.length * cellHeight + 6,
    left,
    top,
    cellWidth,
    cellHeight,
    rotated,
    columnLabelWidth,
    details,
  };
}
