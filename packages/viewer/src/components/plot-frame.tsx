// The pieces every plot shares: a linear scale, nice ticks, and an accessible SVG frame (role="img" with a title
// and a description that states the numbers, so a screen reader — and a test — reads what the marks show).
// Hand-written SVG rather than a plotting library: four small charts do not earn Observable Plot's d3 (hundreds
// of KB in a bundle that is rebuilt at every `openeval view`), and plain SVG renders the same from file://.
import { useCallback, useEffect, useState, type ReactNode } from "react";

export interface Scale {
  (value: number): number;
  domain: [number, number];
  ticks: number[];
}

/** Maps [d0, d1] onto [r0, r1]; a degenerate domain is widened so that a lone value lands in the middle. */
export function linearScale(domain: [number, number], range: [number, number], tickCount = 5): Scale {
  let [d0, d1] = domain;
  if (!(d1 > d0)) [d0, d1] = d0 === 0 ? [0, 1] : [d0 * 0.5, d0 * 1.5];
  const [r0, r1] = range;
  const scale = ((value: number) => r0 + ((value - d0) / (d1 - d0)) * (r1 - r0)) as Scale;
  scale.domain = [d0, d1];
  scale.ticks = niceTicks(d0, d1, tickCount);
  return scale;
}

function niceTicks(start: number, stop: number, count: number): number[] {
  const raw = (stop - start) / Math.max(count, 1);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((factor) => factor * power).find((candidate) => candidate >= raw) ?? raw;
  const ticks: number[] = [];
  for (let tick = Math.ceil(start / step) * step; tick <= stop + step * 1e-9; tick += step)
    ticks.push(Number(tick.toPrecision(12)));
  return ticks;
}

interface PlotFrameProps {
  title: string;
  description: string;
  width: number;
  height: number;
  children: ReactNode;
  testId: string;
  /** Set by a plot laid out for the width it has (useFittedWidth). */
  frameRef?: (element: HTMLElement | null) => void;
  /** Shown under the drawing (e.g. labels there was no room for). */
  note?: ReactNode;
}

export function PlotFrame({ title, description, width, height, children, testId, frameRef, note }: PlotFrameProps) {
  const id = `plot-${testId}`;
  return (
    <figure className="plot" data-testid={testId} ref={frameRef}>
      <figcaption className="plot-title" id={`${id}-title`}>
        {title}
      </figcaption>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        width="100%"
        role="img"
        aria-labelledby={`${id}-title ${id}-desc`}
        preserveAspectRatio="xMinYMin meet"
        style={{ maxHeight: height }}
      >
        <desc id={`${id}-desc`}>{description}</desc>
        {children}
      </svg>
      {note ? <div className="plot-note muted small">{note}</div> : null}
    </figure>
  );
}

/**
 * The width a plot's frame has for its drawing, kept current as the page resizes: a plot laid out for it draws its text
 * at the page's size and places its labels in the room there is. `fallback` (at least `min`) until it is measured.
 */
export function useFittedWidth(
  fallback: number,
  min: number,
): { frameRef: (element: HTMLElement | null) => void; width: number } {
  const [element, setElement] = useState<HTMLElement | null>(null);
  const [measured, setMeasured] = useState<number | null>(null);
  const frameRef = useCallback((node: HTMLElement | null) => setElement(node), []);
  useEffect(() => {
    if (!element) return;
    const measure = () => {
      const style = getComputedStyle(element);
      setMeasured(Math.floor(element.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [element]);
  return { frameRef, width: Math.max(measured ?? fallback, min) };
}

/** A horizontal axis at `y` with its ticks and gridlines up to `top`. */
export function XAxis({
  scale,
  y,
  top,
  format,
  label,
}: {
  scale: Scale;
  y: number;
  top: number;
  format: (value: number) => string;
  label?: string;
}) {
  const [left, right] = [scale(scale.domain[0]), scale(scale.domain[1])];
  return (
    <g className="axis" aria-hidden="true">
      {scale.ticks.map((tick) => (
        <g key={tick}>
          <line className="grid" x1={scale(tick)} x2={scale(tick)} y1={top} y2={y} />
          <text x={scale(tick)} y={y + 14} textAnchor="middle">
            {format(tick)}
          </text>
        </g>
      ))}
      <line className="axis-line" x1={left} x2={right} y1={y} y2={y} />
      {label ? (
        <text className="axis-label" x={(left + right) / 2} y={y + 30} textAnchor="middle">
          {label}
        </text>
      ) : null}
    </g>
  );
}

export function YAxis({
  scale,
  x,
  right,
  format,
  label,
}: {
  scale: Scale;
  x: number;
  right: number;
  format: (value: number) => string;
  label?: string;
}) {
  const [bottom, top] = [scale(scale.domain[0]), scale(scale.domain[1])];
  return (
    <g className="axis" aria-hidden="true">
      {scale.ticks.map((tick) => (
        <g key={tick}>
          <line className="grid" x1={x} x2={right} y1={scale(tick)} y2={scale(tick)} />
          <text x={x - 6} y={scale(tick) + 4} textAnchor="end">
            {format(tick)}
          </text>
        </g>
      ))}
      <line className="axis-line" x1={x} x2={x} y1={bottom} y2={top} />
      {label ? (
        <text
          className="axis-label"
          transform={`translate(${x - 40} ${(bottom + top) / 2}) rotate(-90)`}
          textAnchor="middle"
        >
          {label}
        </text>
      ) : null}
    </g>
  );
}
