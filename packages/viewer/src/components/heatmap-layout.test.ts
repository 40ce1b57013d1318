import { describe, expect, it } from "vitest";
import { heatmapLayout } from "./heatmap-layout.ts";

// Text a fixed 7 px a character (10 px font: 6), as a page's font would measure it.
const measure = (text: string, fontSize = 11.5) => text.length * (fontSize === 10 ? 6 : 7);
const LINE = 15;

describe("heatmapLayout", () => {
  it("writes short names above their columns and gives wide cells a second line for the CI", () => {
    const layout = heatmapLayout(640, ["accuracy", "speed"], ["p/a", "p/b"], measure, LINE);
    expect(layout).toMatchObject({ rotated: false, details: true, cellWidth: 130, cellHeight: 44 });
    expect(layout.left).toBe(8 * 7 + 14);
    expect(layout.top).toBe(LINE + 12);
    expect(layout.width).toBe(640);
    expect(layout.height).toBe(layout.top + 2 * 44 + 6);
  });

  it("leans names wider than a cell, with room above for the widest and to the right for the last", () => {
    const candidates = ["anthropic/claude-sonnet-4-5-20250929", "openai/gpt-4.1-mini [concise]", "p/c", "p/d"];
    const layout = heatmapLayout(400, ["speed"], candidates, measure, LINE);
    expect(layout.rotated).toBe(true);
    const widest = candidates[0]!.length * 7;
    expect(layout.columnLabelWidth).toBe(Math.min(widest, 240));
    expect(layout.top).toBeGreaterThanOrEqual(layout.columnLabelWidth * Math.sin((40 * Math.PI) / 180));
    const lastStart = layout.left + 3 * layout.cellWidth + layout.cellWidth / 2 - 4;
    expect(layout.width).toBeGreaterThanOrEqual(lastStart + 3 * 7 * Math.cos((40 * Math.PI) / 180));
  });

  it("keeps cells at least 56 px with many candidates (the drawing is then wider than the room) and drops the CI line", () => {
    const candidates = Array.from({ length: 20 }, (_, index) => `p/${index}`);
    const layout = heatmapLayout(600, ["speed"], candidates, measure, LINE);
    expect(layout.cellWidth).toBe(56);
    expect(layout.details).toBe(false);
    expect(layout.cellHeight).toBe(34);
    expect(layout.width).toBeGreaterThanOrEqual(layout.left + 20 * 56);
  });

  it("gives category names at most 180 px", () => {
    const layout = heatmapLayout(640, ["a".repeat(60)], ["p/a"], measure, LINE);
    expect(layout.left).toBe(180 + 14);
  });
});
