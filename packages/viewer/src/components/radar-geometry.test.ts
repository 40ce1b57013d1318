import { describe, expect, it } from "vitest";
import { overlaps } from "./label-layout.ts";
import {
  axisAngle,
  axisLabels,
  labelsFit,
  layoutRadar,
  radarBand,
  radarPath,
  radarPoint,
  radarWhisker,
  type Radar,
} from "./radar-geometry.ts";

const RADAR: Radar = { center: { x: 100, y: 100 }, radius: 80, count: 4 };
const close = (point: { x: number; y: number }, x: number, y: number) => {
  expect(point.x).toBeCloseTo(x, 6);
  expect(point.y).toBeCloseTo(y, 6);
};

describe("radar points", () => {
  it("puts the first axis straight up and the next ones clockwise, 0 at the centre and 100 at the rim", () => {
    expect(axisAngle(0, 4)).toBeCloseTo(-Math.PI / 2);
    close(radarPoint(RADAR, 0, 100), 100, 20);
    close(radarPoint(RADAR, 1, 100), 180, 100);
    close(radarPoint(RADAR, 2, 50), 100, 140);
    close(radarPoint(RADAR, 3, 25), 80, 100);
    close(radarPoint(RADAR, 1, 0), 100, 100);
  });

  it("keeps a value outside 0–100 on the radar", () => {
    close(radarPoint(RADAR, 1, 130), 180, 100);
    close(radarPoint(RADAR, 1, -5), 100, 100);
  });

  it("draws a closed path through one value per axis", () => {
    expect(radarPath(RADAR, [100, 100, 50, 25])).toBe("M100,20 L180,100 L100,140 L80,100 Z");
  });
});

describe("radarBand", () => {
  it("is the upper polygon then the lower one (filled evenodd, the ring between them)", () => {
    expect(radarBand(RADAR, [0, 0, 0, 0], [100, 100, 50, 25])).toBe(
      "M100,20 L180,100 L100,140 L80,100 Z M100,100 L100,100 L100,100 L100,100 Z",
    );
  });

  it("is null when every bound is closed: a resolved score has nothing between its bounds", () => {
    expect(radarBand(RADAR, [40, 50, 60, 70], [40, 50, 60, 70])).toBeNull();
  });
});

describe("radarWhisker", () => {
  it("runs along the axis from the lower to the upper end, with caps across it", () => {
    const whisker = radarWhisker(RADAR, 1, 25, 75, 4);
    close(whisker.line[0], 120, 100);
    close(whisker.line[1], 160, 100);
    // The axis points right: the caps are vertical.
    close(whisker.caps[0][0], 120, 96);
    close(whisker.caps[0][1], 120, 104);
    close(whisker.caps[1][1], 160, 104);
  });
});

describe("axis labels", () => {
  it("sit outside the rim: centred on the axes up and down, after the one pointing right, before the one pointing left", () => {
    const labels = axisLabels(RADAR, ["up", "right", "down", "left"]);
    expect(labels.map((label) => label.anchor)).toEqual(["middle", "start", "middle", "end"]);
    const [up, right, down, left] = labels.map((label) => label.box);
    expect(up!.y + up!.height).toBeLessThanOrEqual(20);
    expect(right!.x).toBeGreaterThanOrEqual(180);
    expect(down!.y).toBeGreaterThanOrEqual(180);
    expect(left!.x + left!.width).toBeLessThanOrEqual(20);
    expect(labelsFit(labels, { x: -100, y: -100, width: 400, height: 400 })).toBe(true);
  });

  it("do not fit when one leaves the bounds or two overlap", () => {
    const labels = axisLabels(RADAR, ["up", "right", "down", "left"]);
    expect(labelsFit(labels, { x: 0, y: 0, width: 200, height: 200 })).toBe(false);
    const crowded = axisLabels({ ...RADAR, count: 40 }, Array(40).fill("a long category name"));
    expect(labelsFit(crowded, { x: -500, y: -500, width: 1200, height: 1200 })).toBe(false);
  });
});

describe("layoutRadar", () => {
  const everyLabelClear = (layout: ReturnType<typeof layoutRadar>, width: number, height: number) => {
    for (const [index, label] of layout.labels.entries()) {
      expect(label.box.x).toBeGreaterThanOrEqual(0);
      expect(label.box.y).toBeGreaterThanOrEqual(0);
      expect(label.box.x + label.box.width).toBeLessThanOrEqual(width);
      expect(label.box.y + label.box.height).toBeLessThanOrEqual(height);
      for (const other of layout.labels.slice(index + 1)) expect(overlaps(label.box, other.box)).toBe(false);
    }
  };

  it("names the categories around a radar that fills the cell less their room", () => {
    const layout = layoutRadar(300, 240, ["accuracy", "speed", "tone", "format", "safety"]);
    expect(layout.numbered).toBe(false);
    expect(layout.labels.map((label) => label.text)).toEqual(["accuracy", "speed", "tone", "format", "safety"]);
    expect(layout.radar).toMatchObject({ center: { x: 150, y: 120 }, count: 5 });
    expect(layout.radar.radius).toBeGreaterThan(60);
    everyLabelClear(layout, 300, 240);
  });

  it("numbers the axes when the names would overlap or leave too small a radar", () => {
    const many = Array.from({ length: 14 }, (_, index) => `category number ${index + 1}`);
    const layout = layoutRadar(280, 224, many);
    expect(layout.numbered).toBe(true);
    expect(layout.labels.map((label) => label.text)).toEqual(many.map((_, index) => String(index + 1)));
    everyLabelClear(layout, 280, 224);
  });
});
