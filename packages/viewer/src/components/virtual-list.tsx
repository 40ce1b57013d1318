// A virtualized list over a paged source: only the rows in view (plus a margin) are in the DOM, and only the pages
// they fall in are fetched. Rows have one fixed height, so any position is known without measuring.
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from "react";
import type { Page } from "openeval/viewer-api";

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

export function VirtualList<T>({ fetchPage, resetKey, rowHeight, pageSize = 100, height = "calc(100vh - 220px)", header, renderRow, renderPlaceholder, empty, onTotal, className }: VirtualListProps<T>) {
  const viewport = useRef<HTMLDivElement>(null);
  const [total, setTotal] = useState<number | null>(null);
  const [pages, setPages] = useState<Map<number, T[]>>(new Map());
  const [range, setRange] = useState({ start: 0, end: 40 });
  const requested = useRef(new Set<number>());
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
          setError(reason instanceof Error ? reason : new Error(String(reason)));
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
    const first = Math.floor(range.start / pageSize) * pageSize;
    const last = Math.floor(Math.max(range.end - 1, 0) / pageSize) * pageSize;
    const keep = new Map<number, T[]>();
    const current = generation.current;
    const offsets: number[] = [];
    for (let offset = first; offset <= last; offset += pageSize) offsets.push(offset);
    Promise.all(offsets.map((offset) => fetchPage(offset, pageSize).then((page) => [offset, page] as const))).then(
      (loaded) => {
        if (current !== generation.current) return;
        for (const [offset, page] of loaded) {
          keep.set(offset, page.items);
          requested.current.add(offset);
        }
        setTotal(loaded[0]?.[1].total ?? 0);
        setPages(keep);
      },
      (reason: unknown) => setError(reason instanceof Error ? reason : new Error(String(reason))),
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [resetKey]);

  useEffect(() => {
    if (total !== null) onTotal?.(total);
  }, [total, onTotal]);

  const onScroll = useCallback(() => {
    const element = viewport.current;
    if (!element) return;
    const start = Math.max(0, Math.floor(element.scrollTop / rowHeight) - OVERSCAN);
    const end = Math.ceil((element.scrollTop + element.clientHeight) / rowHeight) + OVERSCAN;
    setRange((previous) => (previous.start === start && previous.end === end ? previous : { start, end }));
  }, [rowHeight]);

  useLayoutEffect(onScroll, [onScroll]);

  useEffect(() => {
    if (total === null) return;
    const end = Math.min(range.end, total);
    for (let index = range.start; index < end; index += 1) {
      const offset = Math.floor(index / pageSize) * pageSize;
      if (!pages.has(offset)) request(offset);
      index = offset + pageSize - 1;
    }
  }, [range, total, pages, pageSize, request]);

  if (error && total === null) return <div className="error-box">{error.message}</div>;
  const rows: ReactNode[] = [];
  if (total !== null) {
    for (let index = range.start; index < Math.min(range.end, total); index++) {
      const page = pages.get(Math.floor(index / pageSize) * pageSize);
      const row = page?.[index % pageSize];
      rows.push(
        <div key={index} className="virtual-row" style={{ top: index * rowHeight, height: rowHeight }} data-index={index}>
          {row !== undefined ? renderRow(row, index) : (renderPlaceholder?.(index) ?? <div className="row-placeholder" />)}
        </div>,
      );
    }
  }
  return (
    <div className={`virtual-list ${className ?? ""}`}>
      {header}
      <div className="virtual-viewport" ref={viewport} onScroll={onScroll} style={{ height: fitHeight(height, total, rowHeight) }}>
        {total === 0 ? (empty ?? <div className="empty">Nothing here yet.</div>) : null}
        <div className="virtual-content" style={{ height: (total ?? 0) * rowHeight }}>
          {rows}
        </div>
      </div>
      {error ? <div className="error-box">{error.message}</div> : null}
    </div>
  );
}

/** Never taller than the rows need, so a short list does not leave a blank box. */
function fitHeight(height: number | string, total: number | null, rowHeight: number): string {
  const limit = typeof height === "number" ? `${height}px` : height;
  return total === null ? limit : `min(${limit}, ${Math.max(total, 3) * rowHeight + 2}px)`;
}
