import { describe, expect, it } from "vitest";
import { costText, PADDING, scorecardFileName, scorecardLayout, wrapText } from "./scorecard-layout.ts";

const measure = (text: string, fontSize: number) => text.length * fontSize * 0.6;
const fit = (text: string, width: number, fontSize: number) =>
  measure(text, fontSize) <= width ? text : `${text.slice(0, Math.max(Math.floor(width / (fontSize * 0.6)) - 1, 0))}…`;

describe("scorecardLayout", () => {
  it("lays the columns side by side, in order, each as wide as its text needs, a category column per category", () => {
    const layout = scorecardLayout(
      {
        candidates: ["p/a", "p/b [terse]"],
        costs: ["$0.19", "unknown"],
        categories: ["accuracy", "speed"],
        footer: "",
      },
      measure,
      fit,
    );
    expect(layout.columns.map((column) => column.key)).toEqual([
      "rank",
      "candidate",
      "score",
      "ci",
      "bar",
      "cost",
      "category:accuracy",
      "category:speed",
    ]);
    expect(layout.columns[0]!.x).toBe(PADDING);
    for (const [index, column] of layout.columns.entries()) {
      const next = layout.columns[index + 1];
      if (next) expect(next.x).toBe(column.x + column.width);
    }
    const last = layout.columns.at(-1)!;
    expect(layout.width).toBe(Math.max(last.x + last.width + PADDING, 560));
    expect(layout.columns.find((column) => column.key === "cost")!.width).toBeGreaterThanOrEqual(
      measure("unknown", 13),
    );
  });

  it("grows with the categories, and shortens a category's name past 110 px", () => {
    const few = scorecardLayout({ candidates: ["p/a"], costs: ["$1"], categories: ["a"], footer: "" }, measure, fit);
    const name = "a very long category name indeed";
    const many = scorecardLayout(
      { candidates: ["p/a"], costs: ["$1"], categories: ["a", "b", name], footer: "" },
      measure,
      fit,
    );
    expect(many.width).toBeGreaterThan(few.width);
    const long = many.columns.at(-1)!;
    expect(long.width).toBe(110);
    expect(long.header).not.toBe(name);
    expect(long.header.endsWith("…")).toBe(true);
  });

  it("gives each candidate a row under the header, and the footnote below the last, wrapped to the card's width", () => {
    const footer = "Scores 0–100: the mean over evals of each eval's mean criterion credit. ".repeat(4);
    const layout = scorecardLayout(
      { candidates: ["a", "b", "c"], costs: ["", "", ""], categories: [], footer },
      measure,
      fit,
    );
    expect(layout.rowTop(0)).toBe(layout.ruleY);
    expect(layout.rowTop(2)).toBe(layout.ruleY + 2 * layout.rowHeight);
    expect(layout.footerY).toBeGreaterThan(layout.rowTop(2) + layout.rowHeight);
    expect(layout.width).toBe(560);
    expect(layout.footer.length).toBeGreaterThan(2);
    expect(layout.footer.join(" ")).toBe(footer.trim());
    for (const line of layout.footer) expect(measure(line, 10.5)).toBeLessThanOrEqual(560 - 2 * PADDING);
    expect(layout.height).toBeGreaterThan(layout.footerY + (layout.footer.length - 1) * 15);
  });
});

describe("wrapText", () => {
  const width = (line: string) => line.length;
  it("breaks between words, filling each line as far as it goes", () => {
    expect(wrapText("aa bb cc  dd\neee", 5, width)).toEqual(["aa bb", "cc dd", "eee"]);
  });

  it("gives a word wider than a line a line of its own, and nothing no line", () => {
    expect(wrapText("a abcdefgh b", 5, width)).toEqual(["a", "abcdefgh", "b"]);
    expect(wrapText("  ", 5, width)).toEqual([]);
  });
});

describe("scorecardFileName", () => {
  it("names the file after the run, with only characters any file system takes", () => {
    expect(scorecardFileName("2026-12-05T01-12-47.072Z-4b4b7f49", "png")).toBe(
      "scorecard-2026-12-05T01-12-47.072Z-4b4b7f49.png",
    );
    expect(scorecardFileName("../my run/ä", "svg")).toBe("scorecard-my-run.svg");
    expect(scorecardFileName("///", "png")).toBe("scorecard-run.png");
  });
});

describe("costText", () => {
  it("writes a known cost, marks a lower bound with +, and never calls a missing cost $0", () => {
    expect(costText({ costUSD: 0.192, unknownCost: 0 })).toBe("$0.19");
    expect(costText({ costUSD: 0.0056, unknownCost: 2 })).toBe("$0.0056+");
    expect(costText({ costUSD: null, unknownCost: 3 })).toBe("unknown");
    expect(costText({ costUSD: null, unknownCost: 0 })).toBe("—");
  });
});
