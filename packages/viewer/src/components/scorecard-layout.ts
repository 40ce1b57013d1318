// The scorecard's layout: a title, a line about the run, then a table (rank, model, score, 95% CI, a bar with the
// bounds and CI, cost, then a column per category) and a footnote. Each column is as wide as its widest text needs,
// within limits (a longer model name is shortened), so the card is as wide as its content.
import type { LeaderboardRow } from "openeval/viewer-api";
import { formatUSD } from "../format.ts";

export type ColumnKey = "rank" | "candidate" | "score" | "ci" | "bar" | "cost" | `category:${string}`;

export interface ScorecardColumn {
  key: ColumnKey;
  /** The header as drawn (a category's name shortened to fit). */
  header: string;
  x: number;
  width: number;
  /** Where its text is anchored: numbers end at the column's right edge (less PAD_CELL). */
  align: "start" | "end" | "middle";
}

export interface ScorecardLayout {
  width: number;
  height: number;
  columns: ScorecardColumn[];
  titleY: number;
  subtitleY: number;
  /** The header row's baseline, and the line under it. */
  headerY: number;
  ruleY: number;
  rowHeight: number;
  /** The top of row `index`. */
  rowTop(index: number): number;
  /** The footnote's first baseline, and its lines wrapped to the card's width. */
  footerY: number;
  footer: string[];
}

export const FONT = { title: 18, subtitle: 12, header: 11, body: 13, footer: 10.5 } as const;
export const PADDING = 20;
export const PAD_CELL = 6;
export const FOOTER_LINE = 15;
const ROW = 34;
const LIMITS = { candidate: [120, 300], category: [58, 110] } as const;
/** Bold and tabular figures draw a little wider than measured. */
const BOLD = 1.08;
/** Room for the title, the run's line and the footnote however few the columns. */
const MIN_WIDTH = 560;

export interface ScorecardText {
  candidates: string[];
  /** Each row's cost as written. */
  costs: string[];
  categories: string[];
  /** The footnote, wrapped to fit. */
  footer: string;
}

/**
 * `measure(text, fontSize)`: the drawn width of a text; `fit(text, width, fontSize)`: the text shortened to a width.
 * @example scorecardLayout({ candidates: ["p/a"], costs: ["$0.10"], categories: ["speed"] }, measureText, fitText).width
 */
export function scorecardLayout(
  text: ScorecardText,
  measure: (text: string, fontSize: number) => number,
  fit: (text: string, width: number, fontSize: number) => string,
): ScorecardLayout {
  const widest = (texts: readonly string[], fontSize: number, bold = 1) =>
    Math.max(0, ...texts.map((entry) => measure(entry, fontSize) * bold));
  const clamp = (value: number, [low, high]: readonly [number, number]) => Math.min(Math.max(value, low), high);
  const numbers = widest(["100.0"], FONT.body, BOLD);
  const widths: { key: ColumnKey; header: string; width: number; align: ScorecardColumn["align"] }[] = [
    { key: "rank", header: "#", width: widest(["99"], FONT.body) + 2 * PAD_CELL, align: "end" },
    {
      key: "candidate",
      header: "Model",
      width: clamp(widest(text.candidates, FONT.body, BOLD), LIMITS.candidate) + 2 * PAD_CELL + 4,
      align: "start",
    },
    {
      key: "score",
      header: "Score",
      width: Math.max(numbers, widest(["Score"], FONT.header)) + 2 * PAD_CELL,
      align: "end",
    },
    { key: "ci", header: "95% CI", width: widest(["100.0–100.0"], FONT.body) + 2 * PAD_CELL, align: "end" },
    { key: "bar", header: "0 – 100", width: 150, align: "middle" },
    {
      key: "cost",
      header: "Cost",
      width: Math.max(widest(text.costs, FONT.body), widest(["Cost"], FONT.header), 40) + 2 * PAD_CELL,
      align: "end",
    },
    ...text.categories.map((category) => {
      const width = clamp(Math.max(widest([category], FONT.header, BOLD), numbers) + 2 * PAD_CELL, LIMITS.category);
      return {
        key: `category:${category}` as const,
        header: fit(category, width - 2 * PAD_CELL, FONT.header * BOLD),
        width,
        align: "middle" as const,
      };
    }),
  ];
  let x = PADDING;
  const columns = widths.map((column) => {
    const placed = { ...column, x, width: Math.ceil(column.width) };
    x += placed.width;
    return placed;
  });
  const titleY = PADDING + FONT.title;
  const subtitleY = titleY + 22;
  const headerY = subtitleY + 30;
  const ruleY = headerY + 8;
  const rows = text.candidates.length;
  const footerY = ruleY + rows * ROW + 24;
  const width = Math.ceil(Math.max(x + PADDING, MIN_WIDTH));
  const footer = wrapText(text.footer, width - 2 * PADDING, (line) => measure(line, FONT.footer));
  return {
    width,
    height: Math.ceil(footerY + (footer.length - 1) * FOOTER_LINE + FONT.footer / 2 + PADDING),
    columns,
    titleY,
    subtitleY,
    headerY,
    ruleY,
    rowHeight: ROW,
    rowTop: (index) => ruleY + index * ROW,
    footerY,
    footer,
  };
}

/** `text` in lines no wider than `width`, broken between words (a word wider than a line gets a line of its own). */
export function wrapText(text: string, width: number, measure: (line: string) => number): string[] {
  const lines: string[] = [];
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const last = lines.at(-1);
    if (last !== undefined && measure(`${last} ${word}`) <= width) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}

/** The file name a scorecard downloads as: the run's id, made safe for any file system. */
export function scorecardFileName(runId: string, extension: "png" | "svg"): string {
  const safe = runId.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[.-]+|-+$/g, "");
  return `scorecard-${safe || "run"}.${extension}`;
}

/** A candidate's recorded spend: a lower bound ("+") when some eval runs reported none, "unknown" when none did. */
export function costText(row: Pick<LeaderboardRow, "costUSD" | "unknownCost">): string {
  if (row.costUSD === null) return row.unknownCost > 0 ? "unknown" : "—";
  return `${formatUSD(row.costUSD)}${row.unknownCost > 0 ? "+" : ""}`;
}
