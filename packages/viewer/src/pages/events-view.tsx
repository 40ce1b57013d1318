// The native OpenCode event stream of the recording, virtualized. An event citation (`<sessionID>#<sequence>`)
// scrolls to its row.
import { useCallback, useEffect, useRef, useState } from "react";
import type { EventRow } from "openeval/viewer-api";
import { VirtualList } from "../components/virtual-list.tsx";
import { formatTime } from "../format.ts";
import { useApi } from "../hooks.tsx";

const ROW_HEIGHT = 34;
const COLUMNS = "220px 70px 240px 90px 1fr";

export function EventsView({ run, evalRun, focus }: { run: string; evalRun: string; focus: string | null }) {
  const api = useApi();
  const [selected, setSelected] = useState<EventRow | null>(null);
  const fetchPage = useCallback(
    (offset: number, limit: number) => api.events(run, evalRun, offset, limit),
    [api, run, evalRun],
  );
  const container = useRef<HTMLDivElement>(null);

  // A cited event: find its index page by page, then scroll the list there.
  useEffect(() => {
    if (!focus) return;
    let cancelled = false;
    (async () => {
      for (let offset = 0; ; offset += 500) {
        const page = await api.events(run, evalRun, offset, 500);
        const index = page.items.findIndex((event) => `${event.sessionID}#${event.sequence}` === focus);
        if (index >= 0) {
          if (cancelled) return;
          setSelected(page.items[index]!);
          const viewport = container.current?.querySelector(".virtual-viewport");
          if (viewport) viewport.scrollTop = Math.max(0, (offset + index) * ROW_HEIGHT - 120);
          return;
        }
        if (offset + 500 >= page.total) return;
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [api, run, evalRun, focus]);

  return (
    <div className="events" ref={container} data-testid="events">
      <VirtualList
        fetchPage={fetchPage}
        resetKey={`${run}:${evalRun}`}
        rowHeight={ROW_HEIGHT}
        pageSize={200}
        height="calc(100vh - 420px)"
        header={
          <div className="list-row list-head" style={{ gridTemplateColumns: COLUMNS }}>
            <div>Session</div>
            <div className="number">Seq</div>
            <div>Type</div>
            <div>Time</div>
            <div>Data</div>
          </div>
        }
        empty={<div className="empty">No native events were recorded.</div>}
        renderRow={(event) => {
          const id = `${event.sessionID}#${event.sequence}`;
          return (
            <button
              className={`list-row ${focus === id || selected === event ? "focused" : ""}`}
              style={{ gridTemplateColumns: COLUMNS }}
              onClick={() => setSelected(event)}
              data-id={id}
            >
              <div className="mono ellipsis small">{event.sessionID}</div>
              <div className="number">{event.sequence}</div>
              <div className="ellipsis">{event.type}</div>
              <div className="muted small">{formatTime(event.time)}</div>
              <div className="mono ellipsis small muted">{event.data}</div>
            </button>
          );
        }}
      />
      {selected ? (
        <div className="event-detail">
          <div className="box-label">
            {selected.type} · {selected.sessionID}#{selected.sequence}
          </div>
          <pre className="code">
            {prettyJson(selected.data)}
            {selected.truncated ? "\n… cut here for display" : ""}
          </pre>
        </div>
      ) : null}
    </div>
  );
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
