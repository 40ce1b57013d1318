import { describe, expect, it } from "vitest";
import {
  fitText,
  groupOverlapping,
  markBox,
  measureText,
  overlaps,
  placeLabels,
  type Box,
  type LabelRequest,
} from "./label-layout.ts";

const BOUNDS: Box = { x: 50, y: 0, width: 350, height: 220 };
const within = (box: Box, bounds: Box) =>
  box.x >= bounds.x &&
  box.y >= bounds.y &&
  box.x + box.width <= bounds.x + bounds.width &&
  box.y + box.height <= bounds.y + bounds.height;

function request(key: string, x: number, y: number): LabelRequest {
  return { key, lines: [key], anchor: { x, y, r: 5 } };
}

function expectClear(placed: ReturnType<typeof placeLabels>["placed"], obstacles: Box[]) {
  for (const [index, label] of placed.entries()) {
    expect(within(label.box, BOUNDS), `${label.key} inside the plot`).toBe(true);
    for (const other of placed.slice(index + 1))
      expect(overlaps(label.box, other.box), `${label.key} over ${other.key}`).toBe(false);
    for (const obstacle of obstacles) expect(overlaps(label.box, obstacle), `${label.key} over a mark`).toBe(false);
  }
}

describe("placeLabels", () => {
  it("puts a label beside its mark when there is room, with no leader line", () => {
    const { placed, unplaced } = placeLabels([request("provider/model", 100, 100)], {
      bounds: BOUNDS,
      obstacles: [markBox(100, 100, 6)],
    });
    expect(unplaced).toEqual([]);
    expect(placed[0]).toMatchObject({ leader: null, align: "start", y: placed[0]!.box.y + 11.5 });
    expect(placed[0]!.box.x).toBeGreaterThan(105);
  });

  it("keeps a label of a mark at the plot's right edge inside the plot, ending next to the mark", () => {
    const { placed } = placeLabels([request("a-rather-long/model-name", 395, 100)], {
      bounds: BOUNDS,
      obstacles: [markBox(395, 100, 6)],
    });
    expect(within(placed[0]!.box, BOUNDS)).toBe(true);
    expect(placed[0]!.align).toBe("end");
  });

  it("places the labels of fifteen marks spread over the plot without overlap, inside it, leader lines clear of labels", () => {
    // A fixed scatter (no randomness): marks 30–60 px apart, some near the edges.
    const marks = Array.from({ length: 15 }, (_, index) => ({
      x: 60 + ((index * 97) % 330),
      y: 12 + ((index * 53) % 200),
    }));
    const obstacles = marks.map((mark) => markBox(mark.x, mark.y, 6));
    const { placed, unplaced } = placeLabels(
      marks.map((mark, index) => request(`provider/model-${index}`, mark.x, mark.y)),
      { bounds: BOUNDS, obstacles },
    );
    expect(unplaced).toEqual([]);
    expectClear(placed, obstacles);
    for (const label of placed) {
      for (const other of placed)
        if (other !== label && label.leader)
          expect(crossesBox(label.leader, other.box), `${label.key}'s leader through ${other.key}`).toBe(false);
    }
  });

  it("names twelve marks drawn over each other in one shared label, a line each", () => {
    const marks = Array.from({ length: 12 }, (_, index) => ({
      key: `provider/model-${index}`,
      x: 300 + (index % 4) * 9,
      y: 100 + Math.floor(index / 4) * 9,
      r: 5,
    }));
    const obstacles = marks.map((mark) => markBox(mark.x, mark.y, 6));
    const groups = groupOverlapping(marks);
    expect(groups).toHaveLength(1);
    const { placed, unplaced } = placeLabels(
      groups.map((group) => ({ key: "group", lines: group.marks.map((mark) => mark.key), anchor: group.anchor })),
      { bounds: BOUNDS, obstacles },
    );
    expect(unplaced).toEqual([]);
    expect(placed.flatMap((label) => label.lines).sort()).toEqual(marks.map((mark) => mark.key).sort());
    expectClear(placed, obstacles);
  });

  it("splits a shared label that has no room whole, and gives up only on a line that fits nowhere", () => {
    const lines = Array.from({ length: 20 }, (_, index) => `provider/model-${index}`);
    const small: Box = { x: 0, y: 0, width: 200, height: 100 };
    const { placed, unplaced } = placeLabels([{ key: "group", lines, anchor: { x: 100, y: 50, r: 5 } }], {
      bounds: small,
      obstacles: [markBox(100, 50, 6)],
    });
    const shown = placed.flatMap((label) => label.lines);
    expect(placed.length).toBeGreaterThan(1);
    expect([...shown, ...unplaced.flatMap((label) => label.lines)].sort()).toEqual([...lines].sort());
    expect(unplaced.every((label) => label.lines.length === 1)).toBe(true);
    for (const [index, label] of placed.entries())
      for (const other of placed.slice(index + 1)) expect(overlaps(label.box, other.box)).toBe(false);
  });

  it("keeps labels off the plot's own lines", () => {
    const line = { x1: 50, y1: 110, x2: 400, y2: 110 };
    const { placed } = placeLabels([request("provider/model", 200, 100)], {
      bounds: BOUNDS,
      obstacles: [markBox(200, 100, 6)],
      lines: [line],
    });
    expect(placed[0]!.box.y + placed[0]!.box.height <= 110 || placed[0]!.box.y >= 110).toBe(true);
  });
});

describe("groupOverlapping", () => {
  it("gathers marks drawn over each other, in the order of their first mark", () => {
    const groups = groupOverlapping([
      { key: "a", x: 10, y: 10, r: 5 },
      { key: "b", x: 100, y: 10, r: 5 },
      { key: "c", x: 14, y: 12, r: 5 },
    ]);
    expect(groups.map((group) => group.marks.map((mark) => mark.key))).toEqual([["a", "c"], ["b"]]);
    expect(groups[0]!.anchor.r).toBeCloseTo(Math.hypot(4, 2) + 5);
  });
});

describe("fitText", () => {
  it("shortens in the middle, keeping a variant's name at the end", () => {
    const text = "anthropic/claude-sonnet-4-5-20250929 [concise]";
    const fitted = fitText(text, measureText(text) / 2);
    expect(fitted).toContain("…");
    expect(fitted.endsWith("[concise]")).toBe(true);
    expect(measureText(fitted)).toBeLessThanOrEqual(measureText(text) / 2);
    expect(fitText("short", 500)).toBe("short");
  });
});

function crossesBox(line: { x1: number; y1: number; x2: number; y2: number }, box: Box): boolean {
  // Sampled along the segment: enough for boxes many times wider than the step.
  for (let step = 0; step <= 200; step++) {
    const t = step / 200;
    const x = line.x1 + (line.x2 - line.x1) * t;
    const y = line.y1 + (line.y2 - line.y1) * t;
    if (x > box.x && x < box.x + box.width && y > box.y && y < box.y + box.height) return true;
  }
  return false;
}
