// Where a category radar's marks go: one axis per category, clockwise from the top, 0 at the centre and 100 at the
// rim; the score polygon, the band between the completion bounds, a CI along each axis, and the category names
// around the rim, which give way to numbers (with a key) when they would overlap.
import { lineHeight, measureText, overlaps, type Box } from "./label-layout.ts";

export interface Point {
  x: number;
  y: number;
}

export interface Radar {
  center: Point;
  /** The rim's radius: a score of 100. */
  radius: number;
  /** How many axes (categories). */
  count: number;
}

/** The angle of axis `index` (radians, screen coordinates): the first straight up, the rest clockwise. */
export function axisAngle(index: number, count: number): number {
  return -Math.PI / 2 + (2 * Math.PI * index) / Math.max(count, 1);
}

/** The point of a 0–100 `value` on axis `index` (clamped to the rim and the centre). */
export function radarPoint(radar: Radar, index: number, value: number): Point {
  const angle = axisAngle(index, radar.count);
  const distance = (Math.min(Math.max(value, 0), 100) / 100) * radar.radius;
  return { x: radar.center.x + distance * Math.cos(angle), y: radar.center.y + distance * Math.sin(angle) };
}

const round = (value: number) => Math.round(value * 100) / 100;

/** A closed path through one 0–100 value per axis. */
export function radarPath(radar: Radar, values: readonly number[]): string {
  return `${values
    .map((value, index) => {
      const point = radarPoint(radar, index, value);
      return `${index === 0 ? "M" : "L"}${round(point.x)},${round(point.y)}`;
    })
    .join(" ")} Z`;
}

/**
 * The band between the lower and the upper bounds, drawn with fill-rule evenodd (the outer polygon minus the inner);
 * null when every bound is closed (nothing between them to draw).
 */
export function radarBand(radar: Radar, lower: readonly number[], upper: readonly number[]): string | null {
  if (lower.every((value, index) => value === upper[index])) return null;
  return `${radarPath(radar, upper)} ${radarPath(radar, lower)}`;
}

/** A CI along axis `index`: the segment from `lower` to `upper`, with a cap across the axis at each end. */
export function radarWhisker(
  radar: Radar,
  index: number,
  lower: number,
  upper: number,
  cap = 4,
): { line: [Point, Point]; caps: [[Point, Point], [Point, Point]] } {
  const from = radarPoint(radar, index, lower);
  const to = radarPoint(radar, index, upper);
  const angle = axisAngle(index, radar.count);
  // Across the axis: the axis's direction turned a quarter.
  const across = { x: -Math.sin(angle) * cap, y: Math.cos(angle) * cap };
  const capAt = (point: Point): [Point, Point] => [
    { x: point.x - across.x, y: point.y - across.y },
    { x: point.x + across.x, y: point.y + across.y },
  ];
  return { line: [from, to], caps: [capAt(from), capAt(to)] };
}

export interface AxisLabel {
  text: string;
  x: number;
  y: number;
  anchor: "start" | "middle" | "end";
  box: Box;
}

/** The gap between the rim and a category's name. */
const LABEL_GAP = 6;

/**
 * Each axis's label just outside the rim: left of an axis pointing left, right of one pointing right, centred on one
 * pointing up or down. `y` is the text's baseline.
 */
export function axisLabels(radar: Radar, texts: readonly string[], fontSize?: number): AxisLabel[] {
  const height = lineHeight(fontSize);
  return texts.map((text, index) => {
    const angle = axisAngle(index, radar.count);
    const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
    const x = radar.center.x + (radar.radius + LABEL_GAP) * cos;
    const y = radar.center.y + (radar.radius + LABEL_GAP) * sin;
    const anchor = cos > 0.3 ? "start" : cos < -0.3 ? "end" : "middle";
    const width = measureText(text, fontSize);
    const left = anchor === "start" ? x : anchor === "end" ? x - width : x - width / 2;
    // Above the rim the box ends at the point, below it starts there, beside it is centred on it.
    const top = sin < -0.3 ? y - height : sin > 0.3 ? y : y - height / 2;
    return { text, x, y: top + height * 0.78, anchor, box: { x: left, y: top, width, height } };
  });
}

/** Whether every label is inside `bounds` and clear of the others. */
export function labelsFit(labels: readonly AxisLabel[], bounds: Box): boolean {
  return labels.every(
    (label, index) =>
      label.box.x >= bounds.x &&
      label.box.y >= bounds.y &&
      label.box.x + label.box.width <= bounds.x + bounds.width &&
      label.box.y + label.box.height <= bounds.y + bounds.height &&
      labels.slice(index + 1).every((other) => !overlaps(label.box, other.box)),
  );
}

/**
 * The largest radar that fits a `width` × `height` cell with room for its labels, and the labels: the categories'
 * names when they fit around it clear of each other, else their numbers (1, 2, …), for a key beside the picture.
 */
export function layoutRadar(
  width: number,
  height: number,
  categories: readonly string[],
  fontSize?: number,
): { radar: Radar; labels: AxisLabel[]; numbered: boolean } {
  const bounds = { x: 0, y: 0, width, height };
  const center = { x: width / 2, y: height / 2 };
  const fit = (texts: readonly string[]) => {
    // The widest name beside the rim and a line above and below it bound the radius.
    const side = Math.max(...texts.map((text) => measureText(text, fontSize)), 0) + LABEL_GAP + 2;
    const radius = Math.max(Math.min(width / 2 - side, height / 2 - lineHeight(fontSize) - LABEL_GAP - 2), 10);
    const radar = { center, radius, count: categories.length };
    return { radar, labels: axisLabels(radar, texts, fontSize) };
  };
  const named = fit(categories);
  // A name is worth a smaller radar down to 60% of the numbered one's.
  const numbers = fit(categories.map((_, index) => String(index + 1)));
  if (labelsFit(named.labels, bounds) && named.radar.radius >= numbers.radar.radius * 0.6)
    return { ...named, numbered: false };
  return { ...numbers, numbered: true };
}
