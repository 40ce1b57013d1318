// One run: its summary and three views of it — the model leaderboard, the eval × model matrix, every eval run.
import { useRef } from "react";
import type { RunOverview } from "openeval/viewer-api";
import { Await, StateBadge, Tabs } from "../components/common.tsx";
import { formatDate } from "../format.ts";
import { useApi, useLiveVersion, useLoad } from "../hooks.tsx";
import { withQuery, type Location } from "../route.ts";
import { EvalRunList } from "./eval-run-list.tsx";
import { Leaderboard, VerdictBadge } from "./leaderboard.tsx";
import { Matrix } from "./matrix.tsx";
import { RunControls } from "../components/run-controls.tsx";
import { CompareView } from "./compare-view.tsx";
import { QueueView } from "./queue-view.tsx";

const TABS = ["leaderboard", "matrix", "eval-runs", "compare", "queue"] as const;

export function RunPage({ run, location }: { run: string; location: Location }) {
  const api = useApi();
  const version = useLiveVersion();
  const overview = useLoad(() => api.overview(run), [run], version);
  const requested = location.query.get("tab");
  // Liveness when the page opened picks its tab: the queue a user watched stays on screen, ending in its summary.
  const opened = useRef<{ run: string; live: boolean } | null>(null);
  return (
    <Await state={overview}>
      {(data) => {
        // While a runner works on the run, it opens on the queue.
        if (opened.current?.run !== run) opened.current = { run, live: data.live };
        const tab =
          TABS.find((candidate) => candidate === requested) ?? (opened.current.live ? "queue" : "leaderboard");
        return (
          <>
            <RunHeader overview={data} />
            <Tabs
              current={tab}
              tabs={[
                {
                  id: "leaderboard",
                  label: "Leaderboard",
                  href: withQuery(location, { tab: "leaderboard" }),
                  count: data.leaderboard.length,
                },
                {
                  id: "matrix",
                  label: "Eval × model",
                  href: withQuery(location, { tab: "matrix" }),
                  count: Object.keys(data.criteria).length,
                },
                {
                  id: "eval-runs",
                  label: "Eval runs",
                  href: withQuery(location, { tab: "eval-runs" }),
                  count: data.counts.evalRuns,
                },
                { id: "compare", label: "Compare", href: withQuery(location, { tab: "compare" }) },
                {
                  id: "queue",
                  label: data.live ? "Queue · live" : "Queue",
                  href: withQuery(location, { tab: "queue" }),
                  count: data.live ? data.counts.running : null,
                },
              ]}
            />
            {tab === "leaderboard" ? <Leaderboard overview={data} run={run} /> : null}
            {tab === "matrix" ? <Matrix run={run} overview={data} location={location} /> : null}
            {tab === "eval-runs" ? <EvalRunList run={run} overview={data} location={location} /> : null}
            {tab === "compare" ? <CompareView run={run} overview={data} location={location} /> : null}
            {tab === "queue" ? <QueueView run={run} overview={data} /> : null}
          </>
        );
      }}
    </Await>
  );
}

function RunHeader({ overview }: { overview: RunOverview }) {
  const { run, counts } = overview;
  return (
    <>
      {overview.integrity.length > 0 ? (
        <div className="error-box" data-testid="run-integrity">
          {overview.integrity.length} record{overview.integrity.length === 1 ? "" : "s"} failed the integrity check
          (judge runs among them are not scored):
          <ul>
            {overview.integrity.map((problem) => (
              <li key={`${problem.kind}:${problem.id}`}>{problem.message}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <div className="page-title run-header">
        <div>
          <h1>{run.name}</h1>
          <div className="muted">
            Run <code>{run.id}</code> · started {formatDate(run.createdAt)} · OpenCode {run.opencodeVersion}
          </div>
          <RunControls run={run.id} live={overview.live} />
        </div>
        <div className="run-stats">
          <Stat label="Judged slots" value={`${counts.judged} / ${counts.slots}`} />
          <Stat label="Eval runs" value={String(counts.evalRuns)} />
          <Stat label="Failed" value={String(counts.failed)} tone={counts.failed > 0 ? "bad" : undefined} />
          <div className="stat">
            <div className="stat-label">Status</div>
            <div className="stat-value">
              {overview.live ? (
                <StateBadge state="running" label="live" />
              ) : overview.complete ? (
                <StateBadge state="completed" label="complete" />
              ) : (
                <StateBadge state="interrupted" label="incomplete" />
              )}
            </div>
          </div>
          <div className="stat">
            <div className="stat-label">Verdict</div>
            <div className="stat-value" data-testid="run-verdict">
              {overview.verdictWords === null ? (
                <span className="muted" title={overview.verdictNote ?? undefined}>
                  —
                </span>
              ) : (
                <VerdictBadge words={overview.verdictWords} />
              )}
            </div>
          </div>
        </div>
      </div>
    </>
  );
}

function Stat({ label, value, tone }: { label: string; value: string; tone?: string }) {
  return (
    <div className="stat">
      <div className="stat-label">{label}</div>
      <div className={`stat-value ${tone ? `tone-text-${tone}` : ""}`}>{value}</div>
    </div>
  );
}
