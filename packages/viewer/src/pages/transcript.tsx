// The transcript of one session — a candidate's recording or a rubric judge's own session: the prompt, every message
// with its text, reasoning and tool calls (input, output, error, subagent), and the final answer. Pages of messages
// load on demand; `focus` (a message, part or tool call id, or "response") scrolls to the cited item and marks it.
import { useEffect, useState } from "react";
import {
  type EvalRunDetail,
  type JudgeSessionView,
  locateInTranscript,
  pageOf,
  pageOffsetFor,
  type SessionInfo,
  type ToolSummary,
  type TranscriptLocation,
  type TranscriptMessage,
  type TranscriptPage,
  type TranscriptPart,
} from "openeval/viewer-api";
import type { ViewerApi } from "../api.ts";
import { Code, Empty, ErrorBox, Spinner, StateBadge } from "../components/common.tsx";
import { formatDuration, formatJson, formatTime, formatUSD } from "../format.ts";
import { toError } from "../hooks.tsx";
import { withQuery, type Location } from "../route.ts";
import { scrollToFocus } from "./focus.ts";

const PAGE = 50;

interface Loaded {
  sessionID: string;
  start: number;
  messages: TranscriptMessage[];
  total: number;
}

/** What a transcript shows, and where its pages come from. */
export interface TranscriptSource {
  /** Changes when the messages do (a running eval run gets its recording when it finishes): the page loads again. */
  key: string;
  /** Why there is no transcript; null when there is one. */
  unavailable: string | null;
  rootSessionID: string | null;
  sessions: SessionInfo[];
  tools: ToolSummary[];
  response: string;
  /** Who gave the final answer, for "The … gave no final answer". */
  author: "candidate" | "judge";
  page(session: string | undefined, offset: number, limit: number): Promise<TranscriptPage>;
  locate(id: string): Promise<TranscriptLocation | null>;
}

/** An eval run's recording, paged by the API. */
export function evalRunTranscript(api: ViewerApi, run: string, detail: EvalRunDetail): TranscriptSource {
  const evalRunId = detail.evalRun.id;
  return {
    key: `${run}\u0000${evalRunId}\u0000${detail.evalRun.evidence?.hash ?? ""}`,
    unavailable: detail.evidenceError,
    rootSessionID: detail.rootSessionID,
    sessions: detail.sessions,
    tools: detail.tools,
    response: detail.response,
    author: "candidate",
    page: (session, offset, limit) => api.transcript(run, evalRunId, session, offset, limit),
    locate: (id) => api.locate(run, evalRunId, id),
  };
}

/** A rubric judge's own session: sent whole with its judge run, paged here. */
export function judgeSessionTranscript(judgeRunId: string, session: JudgeSessionView): TranscriptSource {
  const transcripts = new Map(Object.entries(session.transcripts));
  return {
    key: judgeRunId,
    unavailable: session.error,
    rootSessionID: session.rootSessionID,
    sessions: session.sessions,
    tools: session.tools,
    response: session.response,
    author: "judge",
    page: async (requested, offset, limit) => {
      const sessionID = requested ?? session.rootSessionID ?? "";
      return { ...pageOf(transcripts.get(sessionID) ?? [], offset, limit), sessionID };
    },
    locate: async (id) => locateInTranscript(transcripts, id),
  };
}

export function Transcript({ source, location }: { source: TranscriptSource; location: Location }) {
  const focus = location.query.get("focus");
  const { loaded, error, busy, loadMore } = useTranscriptPage(
    source,
    focus,
    location.query.get("session") ?? undefined,
  );

  useEffect(() => {
    if (loaded && focus) scrollToFocus(focus);
  }, [loaded, focus]);

  if (source.unavailable) return <Empty>No transcript: {source.unavailable}</Empty>;
  const isRoot = loaded !== null && (loaded.sessionID === source.rootSessionID || source.sessions.length <= 1);
  return (
    <div className="transcript-layout">
      <div className="transcript" data-testid="transcript">
        {source.sessions.length > 1 ? (
          <SessionNav sessions={source.sessions} location={location} current={loaded?.sessionID} />
        ) : null}
        {error ? <ErrorBox error={error} /> : null}
        {loaded === null && !error ? <Spinner /> : null}
        {loaded !== null ? (
          <Messages loaded={loaded} busy={busy} loadMore={loadMore} location={location} focus={focus} />
        ) : null}
        {isRoot ? (
          <FinalResponse response={source.response} author={source.author} focused={focus === "response"} />
        ) : null}
      </div>
      <ToolIndex tools={source.tools} location={location} focus={focus} />
    </div>
  );
}

type Direction = "earlier" | "later";

/** The loaded window of one session's messages, and loading the page before or after it. */
function useTranscriptPage(source: TranscriptSource, focus: string | null, requestedSession: string | undefined) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const [busy, setBusy] = useState(false);

  // Step: find the page to open — the cited item's, else the first of the requested (or root) session.
  useEffect(() => {
    let cancelled = false;
    setError(null);
    if (source.unavailable) return;
    (async () => {
      let session = requestedSession;
      let offset = 0;
      if (focus && focus !== "response") {
        const location = await source.locate(focus);
        if (location) {
          session = location.sessionID;
          offset = pageOffsetFor(location.index, PAGE);
        }
      }
      const page = await source.page(session, offset, PAGE);
      if (!cancelled)
        setLoaded({ sessionID: page.sessionID, start: page.offset, messages: page.items, total: page.total });
    })().catch((reason: unknown) => !cancelled && setError(toError(reason)));
    return () => {
      cancelled = true;
    };
    // The key names the messages: the source object itself is rebuilt on every render.
  }, [source.key, source.unavailable, requestedSession, focus]);

  const loadMore = async (direction: Direction) => {
    if (!loaded) return;
    setBusy(true);
    try {
      const offset = direction === "earlier" ? Math.max(0, loaded.start - PAGE) : loaded.start + loaded.messages.length;
      const limit = direction === "earlier" ? loaded.start - offset : PAGE;
      const page = await source.page(loaded.sessionID, offset, limit);
      setLoaded(
        direction === "earlier"
          ? { ...loaded, start: offset, messages: [...page.items, ...loaded.messages] }
          : { ...loaded, messages: [...loaded.messages, ...page.items], total: page.total },
      );
    } catch (reason) {
      setError(toError(reason));
    } finally {
      setBusy(false);
    }
  };

  return { loaded, error, busy, loadMore };
}

/** The root session and its subagents' sessions: a click opens that session's first page. */
function SessionNav({
  sessions,
  location,
  current,
}: {
  sessions: SessionInfo[];
  location: Location;
  current: string | undefined;
}) {
  return (
    <nav className="sessions">
      {sessions.map((session) => (
        <a
          key={session.id}
          href={withQuery(location, { session: session.id, focus: null })}
          className={`session-link ${current === session.id ? "active" : ""}`}
          data-session={session.id}
        >
          {session.parentID ? "↳ subagent" : "root"} · {session.title || session.id}{" "}
          <span className="muted">({session.messages})</span>
        </a>
      ))}
    </nav>
  );
}

/** The loaded messages between a button for the earlier page and one for the later. */
function Messages({
  loaded,
  busy,
  loadMore,
  location,
  focus,
}: {
  loaded: Loaded;
  busy: boolean;
  loadMore: (direction: Direction) => Promise<void>;
  location: Location;
  focus: string | null;
}) {
  return (
    <>
      {loaded.start > 0 ? (
        <button className="button load-more" disabled={busy} onClick={() => void loadMore("earlier")}>
          Load {Math.min(PAGE, loaded.start)} earlier messages
        </button>
      ) : null}
      {loaded.messages.map((message) => (
        <Message key={message.id} message={message} location={location} focus={focus} />
      ))}
      {loaded.start + loaded.messages.length < loaded.total ? (
        <button className="button load-more" disabled={busy} onClick={() => void loadMore("later")}>
          Load more ({loaded.total - loaded.start - loaded.messages.length} left)
        </button>
      ) : null}
    </>
  );
}

function FinalResponse({
  response,
  author,
  focused,
}: {
  response: string;
  author: TranscriptSource["author"];
  focused: boolean;
}) {
  return (
    <div className={`response-box ${focused ? "focused" : ""}`} data-id="response" id="response">
      <div className="box-label">Final response</div>
      {response ? (
        <div className="prose">{response}</div>
      ) : (
        <span className="muted">The {author} gave no final answer.</span>
      )}
    </div>
  );
}

/** Every tool call of the session, in order: a click jumps to it (loading its session and page). */
function ToolIndex({ tools, location, focus }: { tools: ToolSummary[]; location: Location; focus: string | null }) {
  if (tools.length === 0) return <aside className="tool-index muted small">No tool calls.</aside>;
  return (
    <aside className="tool-index" aria-label="Tool calls">
      <div className="box-label">Tool calls ({tools.length})</div>
      <ol>
        {tools.map((tool) => (
          <li key={tool.id}>
            <a
              href={withQuery(location, { focus: tool.id, session: null })}
              className={focus === tool.id ? "active" : ""}
              title={tool.error ?? undefined}
            >
              <span className={`dot status-${tool.status}`} />
              <span className="mono">{tool.name}</span>
              <span className="muted small">{formatDuration(tool.durationMs)}</span>
            </a>
          </li>
        ))}
      </ol>
    </aside>
  );
}

function Message({
  message,
  location,
  focus,
}: {
  message: TranscriptMessage;
  location: Location;
  focus: string | null;
}) {
  const visible = message.parts.filter((part) => !(part.kind === "step" && part.phase === "start"));
  return (
    <article className={`message role-${message.role} ${focus === message.id ? "focused" : ""}`} data-id={message.id}>
      <header className="message-header">
        <span className="role">{message.role}</span>
        {message.agent ? <span className="muted small">{message.agent}</span> : null}
        {message.model ? <span className="muted small">{message.model}</span> : null}
        <span className="spacer" />
        {message.cost !== null ? <span className="muted small">{formatUSD(message.cost)}</span> : null}
        <span className="muted small">{formatTime(message.createdAt)}</span>
        <span className="mono muted small" title="message id">
          {message.id}
        </span>
      </header>
      {message.error ? <div className="error-box">{message.error}</div> : null}
      {visible.map((part) => (
        <Part
          key={part.id}
          part={part}
          location={location}
          focused={focus === part.id || (part.kind === "tool" && part.callID !== null && focus === part.callID)}
        />
      ))}
    </article>
  );
}

/** One part, by kind; a step's start is filtered out by Message, so only a finish renders here. */
function Part({ part, location, focused }: { part: TranscriptPart; location: Location; focused: boolean }) {
  const className = focused ? "focused" : "";
  switch (part.kind) {
    case "text":
      return <TextPart part={part} className={className} />;
    case "reasoning":
      return <ReasoningPart part={part} className={className} focused={focused} />;
    case "tool":
      return <ToolCall part={part} location={location} className={className} />;
    case "step":
      return part.phase === "finish" ? <StepFinish part={part} /> : null;
    case "other":
      return <OtherPart part={part} className={className} />;
  }
}

type PartOf<K extends TranscriptPart["kind"]> = Extract<TranscriptPart, { kind: K }>;

function TextPart({ part, className }: { part: PartOf<"text">; className: string }) {
  return (
    <div className={`part part-text ${part.synthetic ? "synthetic" : ""} ${className}`} data-id={part.id}>
      <div className="prose">{part.text}</div>
      {part.truncated ? <Cut /> : null}
    </div>
  );
}

/** Folded unless it is the cited item. */
function ReasoningPart({
  part,
  className,
  focused,
}: {
  part: PartOf<"reasoning">;
  className: string;
  focused: boolean;
}) {
  return (
    <details className={`part part-reasoning ${className}`} data-id={part.id} open={focused}>
      <summary>Reasoning</summary>
      <div className="prose">{part.text}</div>
      {part.truncated ? <Cut /> : null}
    </details>
  );
}

function StepFinish({ part }: { part: PartOf<"step"> }) {
  return (
    <div className="part part-step muted small" data-id={part.id}>
      step finished{part.reason ? ` (${part.reason})` : ""}
      {part.tokens && typeof part.tokens.output === "number"
        ? ` · ${String(part.tokens.input)} in / ${String(part.tokens.output)} out tokens`
        : ""}
      {part.cost !== null ? ` · ${formatUSD(part.cost)}` : ""}
    </div>
  );
}

function OtherPart({ part, className }: { part: PartOf<"other">; className: string }) {
  return (
    <div className={`part part-other ${className}`} data-id={part.id}>
      <span className="badge tone-muted">{part.type}</span> <span className="mono small">{part.summary}</span>
    </div>
  );
}

function ToolCall({ part, location, className }: { part: PartOf<"tool">; location: Location; className: string }) {
  return (
    <div
      className={`part tool-call status-${part.status} ${className}`}
      data-id={part.id}
      data-call-id={part.callID ?? undefined}
      data-tool={part.tool}
    >
      <div className="tool-header">
        <span className="tool-name">{part.tool}</span>
        {part.title ? <span className="tool-title">{part.title}</span> : null}
        <span className="spacer" />
        <StateBadge state={part.status} />
        <span className="muted small">{formatDuration(part.durationMs)}</span>
      </div>
      <div className="tool-body">
        <div className="tool-section">
          <div className="box-label">Input</div>
          <Code className="tool-input">{formatJson(part.input)}</Code>
        </div>
        {part.output !== null ? (
          <div className="tool-section">
            <div className="box-label">Output</div>
            <Code className="tool-output">{part.output}</Code>
          </div>
        ) : null}
        {part.error !== null ? (
          <div className="tool-section">
            <div className="box-label tone-text-bad">Error</div>
            <Code className="tool-error">{part.error}</Code>
          </div>
        ) : null}
        {part.truncated ? <Cut /> : null}
        {part.childSessionID ? (
          <a className="button small" href={withQuery(location, { session: part.childSessionID, focus: null })}>
            Open the subagent session →
          </a>
        ) : null}
      </div>
    </div>
  );
}

function Cut() {
  return <div className="muted small">… cut here for display (the recording keeps it whole)</div>;
}
