// Small building blocks every page uses: tabs, badges, score bars, code blocks, loading and error states.
import type { ReactNode } from "react";
import { describeState } from "openeval/viewer-api";
import { NotFoundError } from "../api.ts";
import { DASH, creditClass, formatCredit, formatJson } from "../format.ts";
import type { Loaded } from "../hooks.tsx";

export function Tabs({
  tabs,
  current,
}: {
  tabs: { id: string; label: ReactNode; href: string; count?: number | null }[];
  current: string;
}) {
  return (
    <nav className="tabs" role="tablist">
      {tabs.map((tab) => (
        <a
          key={tab.id}
          href={tab.href}
          role="tab"
          aria-selected={tab.id === current}
          className={tab.id === current ? "tab active" : "tab"}
          data-tab={tab.id}
        >
          {tab.label}
          {tab.count !== undefined && tab.count !== null ? <span className="tab-count">{tab.count}</span> : null}
        </a>
      ))}
    </nav>
  );
}

const STATE_TONES: Record<string, string> = {
  completed: "good",
  running: "busy",
  pending: "muted",
  failed: "bad",
  timed_out: "bad",
  cost_limited: "warn",
  token_limited: "warn",
  step_limited: "warn",
  stopped: "warn",
  interrupted: "warn",
  error: "bad",
  // earlyStop check outcomes (continue and cancelled stay muted).
  decided: "good",
};

export function StateBadge({ state, label }: { state: string; label?: string }) {
  return <span className={`badge tone-${STATE_TONES[state] ?? "muted"}`}>{label ?? describeState(state)}</span>;
}

export function ControlBadge() {
  return (
    <span className="badge tone-control" title="A scripted control model, not a real model's result">
      control
    </span>
  );
}

export function UnsandboxedBadge() {
  return (
    <span
      className="badge tone-bad"
      title="Ran on the host as the current user (--isolation process), not in a container: the agent could read what that user can"
    >
      unsandboxed
    </span>
  );
}

/** A credit (0–1) as a coloured pill. */
export function Credit({ value, title }: { value: number | null; title?: string }) {
  return (
    <span className={`credit ${creditClass(value)}`} title={title}>
      {formatCredit(value)}
    </span>
  );
}

/** A 0–100 score with its completion bounds drawn as a band behind the point. */
export function ScoreBar({ value, lower, upper }: { value: number | null; lower: number; upper: number }) {
  return (
    <div className="score-bar" aria-hidden="true">
      <div className="score-bar-band" style={{ left: `${lower}%`, width: `${Math.max(upper - lower, 0.5)}%` }} />
      {value !== null ? <div className="score-bar-fill" style={{ width: `${value}%` }} /> : null}
    </div>
  );
}

export function Code({ children, className, language }: { children: string; className?: string; language?: string }) {
  return (
    <pre className={`code ${className ?? ""}`} data-language={language}>
      {children}
    </pre>
  );
}

export function Json({ value }: { value: unknown }) {
  return <Code language="json">{formatJson(value)}</Code>;
}

export function Section({
  title,
  children,
  id,
  actions,
}: {
  title: ReactNode;
  children: ReactNode;
  id?: string;
  actions?: ReactNode;
}) {
  return (
    <section className="section" id={id}>
      <header className="section-header">
        <h2>{title}</h2>
        {actions}
      </header>
      {children}
    </section>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <div className="empty">{children}</div>;
}

export function Spinner({ label = "Loading…" }: { label?: string }) {
  return (
    <div className="loading" role="status">
      <span className="spinner" />
      {label}
    </div>
  );
}

export function ErrorBox({ error }: { error: Error }) {
  return (
    <div className="error-box" role="alert">
      {error.message}
      {error instanceof NotFoundError ? (
        <>
          {" "}
          <a href="#/">Back to the runs</a>
        </>
      ) : null}
    </div>
  );
}

/** Renders data once loaded; a spinner first, an error box on failure (keeping stale data visible). */
export function Await<T>({ state, children }: { state: Loaded<T>; children: (data: T) => ReactNode }) {
  if (state.data !== null) {
    return (
      <>
        {state.status === "error" ? <ErrorBox error={state.error} /> : null}
        {children(state.data)}
      </>
    );
  }
  if (state.status === "error") return <ErrorBox error={state.error} />;
  return <Spinner />;
}

/** The Bounds and 95% CI column heads, explained the same way wherever a score is shown. */
export function BoundsAndIntervalHeads() {
  return (
    <>
      <th className="number" title="Completion bounds: unresolved slots counted as 0 (lower) and as 1 (upper)">
        Bounds
      </th>
      <th className="number" title="95% confidence interval (needs repetitions ≥ 2)">
        95% CI
      </th>
    </>
  );
}

export function Dash() {
  return <span className="muted">{DASH}</span>;
}

export function KeyValues({ items }: { items: [ReactNode, ReactNode][] }) {
  return (
    <dl className="key-values">
      {items.map(([key, value], index) => (
        <div key={index}>
          <dt>{key}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
