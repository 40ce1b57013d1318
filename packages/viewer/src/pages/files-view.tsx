// The final workspace (or the initial one) file by file, and the eval run's process logs. A file citation opens
// here with `path` (and `quote`, which is marked in the text).
import { useEffect, type ReactNode } from "react";
import type { EvalRunDetail, FileText } from "openeval/viewer-api";
import { Await, Code, Empty } from "../components/common.tsx";
import { formatBytes } from "../format.ts";
import { useApi, useLoad } from "../hooks.tsx";
import { withQuery, type Location } from "../route.ts";
import { scrollToFocus } from "./focus.ts";

export function FilesView({ run, detail, location }: { run: string; detail: EvalRunDetail; location: Location }) {
  const api = useApi();
  const path = location.query.get("path");
  const revision = location.query.get("revision") === "initial" ? "initial" : "final";
  const changed = new Set(detail.diff.map((file) => file.path));
  if (detail.files.length === 0) return <Empty>No workspace snapshot was recorded.</Empty>;
  return (
    <div className="split">
      <nav className="file-list">
        {detail.files.map((file) => (
          <a
            key={file.path}
            href={withQuery(location, { path: file.path, revision: null, quote: null })}
            className={`file-link ${file.path === path ? "active" : ""}`}
            data-path={file.path}
          >
            <span className="mono ellipsis">{file.path}</span>
            {changed.has(file.path) ? <span className="badge tone-busy">changed</span> : null}
            {detail.leftOut?.[file.path] !== undefined ? <span className="badge tone-muted">left out</span> : null}
            <span className="muted small">{file.kind === "file" ? formatBytes(file.bytes) : "link"}</span>
          </a>
        ))}
      </nav>
      <div className="file-pane">
        {path && detail.leftOut?.[path] !== undefined ? (
          // A static export says why it does not hold a file, as its Diff tab does, rather than asking for it.
          <div className="empty" data-testid="left-out">
            The contents of <span className="mono">{path}</span> are left out: {detail.leftOut[path]}
          </div>
        ) : path ? (
          <FileContent
            key={`${path}:${revision}`}
            load={() => api.workspaceFile(run, detail.evalRun.id, path, revision)}
            title={`${path} (${revision})`}
            quote={location.query.get("quote")}
          />
        ) : (
          <Empty>Pick a file.</Empty>
        )}
      </div>
    </div>
  );
}

export function LogsView({ run, detail, location }: { run: string; detail: EvalRunDetail; location: Location }) {
  const api = useApi();
  const path = location.query.get("path");
  if (detail.logs.length === 0) return <Empty>No process logs were kept for this eval run.</Empty>;
  return (
    <div className="split">
      <nav className="file-list">
        {detail.logs.map((file) => (
          <a
            key={file.path}
            href={withQuery(location, { path: file.path })}
            className={`file-link ${file.path === path ? "active" : ""}`}
          >
            <span className="mono ellipsis">{file.path}</span>
            <span className="muted small">{formatBytes(file.bytes)}</span>
          </a>
        ))}
      </nav>
      <div className="file-pane">
        {path ? (
          <FileContent key={path} load={() => api.evalRunLog(run, detail.evalRun.id, path)} title={path} />
        ) : (
          <Empty>Pick a log.</Empty>
        )}
      </div>
    </div>
  );
}

export function FileContent({
  load,
  title,
  quote,
  extra,
}: {
  load: () => Promise<FileText>;
  title: string;
  quote?: string | null;
  extra?: ReactNode;
}) {
  const file = useLoad(load, [title]);
  useEffect(() => {
    if (file.status === "ready" && quote) scrollToFocus("quote");
  }, [file.status, quote]);
  return (
    <Await state={file}>
      {(data) => (
        <div className="file-content" data-testid="file-content">
          <header className="file-header">
            <span className="mono strong">{title}</span>
            <span className="muted small">{formatBytes(data.bytes)}</span>
            {extra}
          </header>
          {data.text === null ? <Empty>Binary file: not shown.</Empty> : <Code>{data.text}</Code>}
          {data.text !== null && quote ? <QuoteMark text={data.text} quote={quote} /> : null}
          {data.truncated ? <div className="muted small">… cut here for display</div> : null}
        </div>
      )}
    </Await>
  );
}

/** Shows the cited quote with a few lines of context, marked (or says it is not in the file). */
function QuoteMark({ text, quote }: { text: string; quote: string }) {
  const at = text.indexOf(quote);
  return (
    <div className="quote-context" data-id="quote">
      <div className="box-label">Cited quote {at < 0 ? "(not found verbatim in this file)" : ""}</div>
      {at < 0 ? (
        <Code>{quote}</Code>
      ) : (
        <pre className="code">
          {text.slice(Math.max(0, text.lastIndexOf("\n", Math.max(0, at - 200)) + 1), at)}
          <mark>{quote}</mark>
          {text.slice(at + quote.length, text.indexOf("\n", at + quote.length + 200) >>> 0)}
        </pre>
      )}
    </div>
  );
}
