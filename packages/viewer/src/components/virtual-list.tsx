// A virtualized list over a paged source: only the rows in view (plus a margin) are in the DOM, and only the pages
// they fall in are fetched. Rows have one fixed height, so any position is known without measuring.
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from "react";
import type { Page } from "openeval/viewer-api";
import { toError } from "../hooks.tsx";

const OVERSCAN = 10;

export interface VirtualListProps<T> {
  /** Fetches rows [offset, offset + limit). */
  fetchPage: (offset: number, limit: number) => Promise<Page<T>>;
  /** Changing it drops every fetched page (new filters, or a live update). */
  resetKey: string;
  rowHeight: number;
  pageSize?: number;
  /** Height of the scrolling viewport; default: the rest of the window. */
  height?: number | string;
  header?: ReactNode;
  renderRow: (row: T, index: number) => ReactNode;
  renderPlaceholder?: (index: number) => ReactNode;
  empty?: ReactNode;
  onTotal?: (total: number) => void;
  className?: string;
}

export function VirtualList<T>({
  fetchPage,
  resetKey,
  rowHeight,
  pageSize = 100,
  height = "calc(100vh - 220px)",
  header,
  renderRow,
  renderPlaceholder,
  empty,
  onTotal,
  className,
}: VirtualListProps<T>) {
  const viewport = useRef<HTMLDivElement>(null);
  const { range, onScroll } = useVisibleRange(viewport, rowHeight);
  const { total, pages, error } = usePagedRows({ fetchPage, pageSize, resetKey, range, onTotal });

  if (error && total === null) return <div className="error-box">{error.message}</div>;
  return (
    <div className={`virtual-list ${className ?? ""}`}>
      {header}
      <div
        className="virtual-viewport"
        ref={viewport}
        onScroll={onScroll}
        style={{ height: fitHeight(height, total, rowHeight) }}
      >
        {total === 0 ? (empty ?? <div className="empty">Nothing here yet.</div>) : null}
        <div className="virtual-content" style={{ height: (total ?? 0) * rowHeight }}>
          {total === null
            ? []
            : visibleRows({ range, total, pages, pageSize, rowHeight, renderRow, renderPlaceholder })}
        </div>
      </div>
      {error ? <div className="error-box">{error.message}</div> : null}
    </div>
  );
}

/** Rows [start, end) of the list, widened by OVERSCAN: what the viewport shows at its scroll position. */
interface VisibleRange {
  start: number;
  end: number;
}

/** The rows in view, recomputed on scroll and once after layout (the viewport's height is known only then). */
function useVisibleRange(viewport: RefObject<HTMLDivElement | null>, rowHeight: number) {
  const [range, setRange] = useState<VisibleRange>({ start: 0, end: 40 });
  const onScroll = useCallback(() => {
    const element = viewport.current;
    if (!element) return;
    const start = Math.max(0, Math.floor(element.scrollTop / rowHeight) - OVERSCAN);
    const end = Math.ceil((element.scrollTop + element.clientHeight) / rowHeight) + OVERSCAN;
    setRange((previous) => (previous.start === start && previous.end === end ? previous : { start, end }));
  }, [viewport, rowHeight]);
  useLayoutEffect(onScroll, [onScroll]);
  return { range, onScroll };
}

interface PagedRowsOptions<T> {
  fetchPage: VirtualListProps<T>["fetchPage"];
  pageSize: number;
  resetKey: string;
  range: VisibleRange;
  onTotal?: (total: number) => void;
}

/** The fetched pages by offset, and the total: the pages the range falls in are fetched once each. */
function usePagedRows<T>({ fetchPage, pageSize, resetKey, range, onTotal }: PagedRowsOptions<T>) {
  const [total, setTotal] = useState<number | null>(null);
  const [pages, setPages] = useState<Map<number, T[]>>(new Map());
  const requested = useRef(new Set<number>());
  /** Bumped on every reset, so a page fetched for older filters is dropped when it arrives. */
  const generation = useRef(0);
  const [error, setError] = useState<Error | null>(null);

  const request = useCallback(
    (offset: number) => {
      if (requested.current.has(offset)) return;
      requested.current.add(offset);
      const current = generation.current;
      fetchPage(offset, pageSize).then(
        (page) => {
          if (current !== generation.current) return;
          setTotal(page.total);
          setPages((previous) => new Map(previous).set(offset, page.items));
        },
        (reason: unknown) => {
          requested.current.delete(offset);
          setError(toError(reason));
        },
      );
    },
    [fetchPage, pageSize],
  );

  // New filters or a live update: refetch what is in view, keeping the old rows on screen until it arrives.
  useEffect(() => {
    generation.current += 1;
    requested.current = new Set();
    setError(null);
    const current = generation.current;
    const offsets = pageOffsets(range, pageSize);
    Promise.all(offsets.map((offset) => fetchPage(offset, pageSize).then((page) => [offset, page] as const))).then(
      (loaded) => {
        if (current !== generation.current) return;
        const keep = new Map<number, T[]>();
        for (const [offset, page] of loaded) {
          keep.set(offset, page.items);
          requested.current.add(offset);
        }
        setTotal(loaded[0]?.[1].total ?? 0);
        setPages(keep);
      },
      (reason: unknown) => setError(toError(reason)),
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [resetKey]);

  useEffect(() => {
    if (total !== null) onTotal?.(total);
  }, [total, onTotal]);

  // Scrolled to rows whose page is not here yet: fetch it.
  useEffect(() => {
    if (total === null) return;
    const end = Math.min(range.end, total);
    for (let index = range.start; index < end; index += 1) {
      const offset = Math.floor(index / pageSize) * pageSize;
      if (!pages.has(offset)) request(offset);
      index = offset + pageSize - 1;
    }
  }, [range, total, pages, pageSize, request]);

  return { total, pages, error };
}

/** The offsets of the pages that rows [start, end) fall in. */
function pageOffsets(range: VisibleRange, pageSize: number): number[] {
  const first = Math.floor(range.start / pageSize) * pageSize;
  const last = Math.floor(Math.max(range.end - 1, 0) / pageSize) * pageSize;
  const offsets: number[] = [];
  for (let offset = first; offset <= last; offset += pageSize) offsets.push(offset);
  return offsets;
}

interface VisibleRowsOptions<T> extends Pick<VirtualListProps<T>, "rowHeight" | "renderRow" | "renderPlaceholder"> {
  range: VisibleRange;
  total: number;
  pages: Map<number, T[]>;
  pageSize: number;
}

/** One absolutely placed box per row in range: the row when its page is here, a placeholder until then. */
function visibleRows<T>({
  range,
  total,
  pages,
  pageSize,
  rowHeight,
  renderRow,
  renderPlaceholder,
}: VisibleRowsOptions<T>): ReactNode[] {
  const rows: ReactNode[] = [];
  for (let index = range.start; index < Math.min(range.end, total); index++) {
    const page = pages.get(Math.floor(index / pageSize) * pageSize);
    const row = page?.[index % pageSize];
    rows.push(
      <div key={index} className="virtual-row" style={{ top: index * rowHeight, height: rowHeight }} data-index={index}>
        {row !== undefined
          ? renderRow(row, index)
          : (renderPlaceholder?.(index) ?? <div className="row-placeholder" />)}
      </div>,
    );
  }
  return rows;
}

/** Never taller than the rows need, so a short list does not leave a blank box. */
function fitHeight(height: number | string, total: number | null, rowHeight: number): string {
  const limit = typeof height === "number" ? `${height}px` : height;
  return total === null ? limit : `min(${limit}, ${Math.max(total, 3) * rowHeight + 2}px)`;
}
