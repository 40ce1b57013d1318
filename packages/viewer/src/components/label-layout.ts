// Where a plot's text labels go: beside their mark when there is room, else at the nearest free spot with a leader
// line back to it; never over another label, a mark or a line, never outside the plot. Greedy, best spots to the first
// asked; widths come from the page's own font, so the boxes reserved are the boxes drawn.

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Segment {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

export interface LabelRequest {
  key: string;
  /** One line per mark it names. */
  lines: string[];
  /** The mark (or marks) the label names: a circle around them. */
  anchor: { x: number; y: number; r: number };
}

export interface PlacedLabel extends LabelRequest {
  box: Box;
  /** Where the <text> is anchored (`align`) and its first line's baseline (each next line is lineHeight() lower). */
  x: number;
  y: number;
  /** A label left of its mark is right-aligned, so that its lines end next to the mark. */
  align: "start" | "end";
  /** The line from the mark to a label placed away from it; null for a label beside its mark. */
  leader: Segment | null;
}

export interface LabelLayout {
  placed: PlacedLabel[];
  /** Labels with no free spot in the box: the plot lists them instead. */
  unplaced: LabelRequest[];
}

/** The font size (px) of `.plot .mark-label`, which every placed label uses. */
export const LABEL_FONT = 11.5;
const GAP = 3;
/** Room around each box: glyphs of some fonts reach a little past their advance width. */
const PAD = 1;
const GRID = 4;

let context: CanvasRenderingContext2D | null | undefined;

/** The drawn width of `text` in the page's font at `fontSize` (an estimate where there is no canvas). */
export function measureText(text: string, fontSize = LABEL_FONT): number {
  if (context === undefined)
    context = typeof document === "undefined" ? null : document.createElement("canvas").getContext("2d");
  if (!context) return text.length * fontSize * 0.62;
  context.font = `${fontSize}px ${getComputedStyle(document.documentElement).fontFamily}`;
  // Tabular figures and hinting can make the drawn text a little wider than measured.
  return context.measureText(text).width * 1.04 + 1;
}

/** A label's box height: the font's ascent and descent with a margin. */
export function lineHeight(fontSize = LABEL_FONT): number {
  return Math.ceil(fontSize * 1.3);
}

/** `text`, shortened in the middle (keeping its end, e.g. a variant) until it fits `width`. */
export function fitText(text: string, width: number, fontSize = LABEL_FONT): string {
  if (measureText(text, fontSize) <= width) return text;
  let keep = text.length - 1;
  while (keep > 2) {
    const head = Math.ceil(keep / 2);
    const shortened = `${text.slice(0, head)}…${text.slice(text.length - (keep - head))}`;
    if (measureText(shortened, fontSize) <= width) return shortened;
    keep -= 1;
  }
  return "…";
}

/**
 * Places each label in `bounds`, clear of the other labels, of `obstacles` (the plot's marks) and of `lines`; a label of
 * several lines with no room whole is split in two. When some find no spot, it tries again with those first (greedy
 * placement can box a label in), and keeps the better try.
 * @example placeLabels([{ key: "a", lines: ["model"], anchor: { x: 40, y: 30, r: 5 } }], { bounds: { x: 0, y: 0, width: 200, height: 100 }, obstacles: [] })
 */
export function placeLabels(requests: readonly LabelRequest[], options: PlaceOptions): LabelLayout {
  let best = placeInOrder(requests, options);
  let last = best;
  // Every label that found no spot in some try goes first in the next.
  const first = new Set<LabelRequest>();
  for (let attempt = 0; attempt < RETRIES && last.unplaced.length > 0; attempt++) {
    for (const request of last.failed) first.add(request);
    last = placeInOrder([...first, ...requests.filter((request) => !first.has(request))], options);
    if (last.unplaced.length < best.unplaced.length) best = last;
  }
  return { placed: best.placed, unplaced: best.unplaced };
}

interface PlaceOptions {
  bounds: Box;
  obstacles: readonly Box[];
  /** The plot's own lines (e.g. a Pareto front). */
  lines?: readonly Segment[];
  fontSize?: number;
}

const RETRIES = 4;

/** One try, in the order given; `failed`: the requests (as given) some part of which found no spot. */
function placeInOrder(
  requests: readonly LabelRequest[],
  options: PlaceOptions,
): LabelLayout & { failed: Set<LabelRequest> } {
  const fontSize = options.fontSize ?? LABEL_FONT;
  const { bounds } = options;
  const taken: Box[] = [...options.obstacles];
  const placed: PlacedLabel[] = [];
  // The plot's own lines and the leader lines drawn so far: no label goes over one.
  const drawnLines: Segment[] = [...(options.lines ?? [])];
  const unplaced: LabelRequest[] = [];
  const failed = new Set<LabelRequest>();
  // Each part of a split label, with the request it came from.
  const queue = requests.map((request) => ({ request, origin: request }));
  for (let next = queue.shift(); next; next = queue.shift()) {
    const { request, origin } = next;
    const room = bounds.width - 2 * PAD;
    const lines = request.lines.map((line) => fitText(line, room, fontSize));
    const size = {
      width: Math.max(...lines.map((line) => measureText(line, fontSize))) + 2 * PAD,
      height: lines.length * lineHeight(fontSize),
    };
    const fits = (candidate: Box) => {
      if (
        !inside(candidate, bounds) ||
        taken.some((other) => overlaps(candidate, other)) ||
        drawnLines.some((line) => crosses(line, candidate))
      )
        return false;
      const leader = leaderLine(request.anchor, candidate);
      return !leader || !placed.some((label) => crosses(leader, label.box));
    };
    const box = candidateBoxes(request.anchor, size, bounds).find(fits);
    if (!box) {
      const half = Math.ceil(request.lines.length / 2);
      if (request.lines.length === 1) {
        unplaced.push(request);
        failed.add(origin);
      } else {
        queue.unshift(
          { request: { ...request, lines: request.lines.slice(0, half) }, origin },
          { request: { ...request, key: `${request.key} (${half + 1}…)`, lines: request.lines.slice(half) }, origin },
        );
      }
      continue;
    }
    const leader = leaderLine(request.anchor, box);
    if (leader) drawnLines.push(leader);
    taken.push(box);
    const align = box.x + box.width / 2 < request.anchor.x ? "end" : "start";
    placed.push({
      ...request,
      lines,
      box,
      x: align === "end" ? box.x + box.width - PAD : box.x + PAD,
      y: box.y + fontSize,
      leader,
      align,
    });
  }
  return { placed, unplaced, failed };
}

/**
 * Marks drawn over (or touching) each other, gathered to share a label, since no label fits between them: each group in
 * the order of its first mark, with a circle around all of them to anchor the label.
 */
export function groupOverlapping<T extends { x: number; y: number; r: number }>(
  marks: readonly T[],
): { marks: T[]; anchor: LabelRequest["anchor"] }[] {
  const groups: T[][] = [];
  for (const mark of marks) {
    const group = groups.find((members) =>
      members.some((other) => Math.hypot(other.x - mark.x, other.y - mark.y) < other.r + mark.r + GAP),
    );
    if (group) group.push(mark);
    else groups.push([mark]);
  }
  return groups.map((members) => {
    const [{ x, y }] = members as [T];
    return {
      marks: members,
      anchor: { x, y, r: Math.max(...members.map((member) => Math.hypot(member.x - x, member.y - y) + member.r)) },
    };
  });
}

/** The box of a round mark, for `obstacles`. */
export function markBox(x: number, y: number, r: number): Box {
  return { x: x - r, y: y - r, width: 2 * r, height: 2 * r };
}

/** Beside the mark first (right, left, above, below, then the corners), then every spot of a grid, nearest first. */
function candidateBoxes(anchor: LabelRequest["anchor"], size: { width: number; height: number }, bounds: Box): Box[] {
  const { x, y } = anchor;
  const near = anchor.r + GAP;
  const { width, height } = size;
  const beside: [number, number][] = [
    [x + near, y - height / 2],
    [x - near - width, y - height / 2],
    [x - width / 2, y - near - height],
    [x - width / 2, y + near],
    [x + near * 0.7, y - near * 0.7 - height],
    [x - near * 0.7 - width, y - near * 0.7 - height],
    [x + near * 0.7, y + near * 0.7],
    [x - near * 0.7 - width, y + near * 0.7],
  ];
  const grid: { box: Box; distance: number }[] = [];
  for (let top = bounds.y; top + height <= bounds.y + bounds.height; top += GRID) {
    for (let left = bounds.x; left + width <= bounds.x + bounds.width; left += GRID) {
      const box = { x: left, y: top, width, height };
      grid.push({ box, distance: distanceTo(box, x, y) });
    }
  }
  grid.sort((a, b) => a.distance - b.distance);
  return [...beside.map(([left, top]) => ({ x: left, y: top, width, height })), ...grid.map((entry) => entry.box)];
}

function leaderLine(anchor: LabelRequest["anchor"], box: Box): PlacedLabel["leader"] {
  const distance = distanceTo(box, anchor.x, anchor.y);
  if (distance <= anchor.r + GAP * 2) return null;
  const x2 = clamp(anchor.x, box.x, box.x + box.width);
  const y2 = clamp(anchor.y, box.y, box.y + box.height);
  const scale = anchor.r / distance;
  return { x1: anchor.x + (x2 - anchor.x) * scale, y1: anchor.y + (y2 - anchor.y) * scale, x2, y2 };
}

/** Whether the segment passes through the box (Liang–Barsky clipping). */
function crosses(line: Segment, box: Box): boolean {
  const dx = line.x2 - line.x1;
  const dy = line.y2 - line.y1;
  let low = 0;
  let high = 1;
  for (const [p, q] of [
    [-dx, line.x1 - box.x],
    [dx, box.x + box.width - line.x1],
    [-dy, line.y1 - box.y],
    [dy, box.y + box.height - line.y1],
  ] as const) {
    if (p === 0) {
      if (q < 0) return false;
      continue;
    }
    const t = q / p;
    if (p < 0) low = Math.max(low, t);
    else high = Math.min(high, t);
    if (low > high) return false;
  }
  return true;
}

function distanceTo(box: Box, x: number, y: number): number {
  return Math.hypot(x - clamp(x, box.x, box.x + box.width), y - clamp(y, box.y, box.y + box.height));
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(Math.max(value, low), high);
}

function inside(box: Box, bounds: Box): boolean {
  return (
    box.x >= bounds.x &&
    box.y >= bounds.y &&
    box.x + box.width <= bounds.x + bounds.width &&
    box.y + box.height <= bounds.y + bounds.height
  );
}

export function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}
