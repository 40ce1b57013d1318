// The run page's Compare tab: this run (b) against another run, baseline.json, or one of its models against
// another (a) — per model pair the two scores and the paired difference with its 95% CI, then every criterion's
// change, regressions first, sortable and filterable from the URL and paged by the server; a slot's two transcripts
// open side by side.
import { useCallback } from "react";
import {
  CHANGE_SORTS,
  CHANGE_STATUSES,
  type ChangeRow,
  type ChangeStatus,
  type ComparisonRequest,
  type ComparisonSummary,
  type ModelPairSummary,
  type RunOverview,
  signed,
} from "openeval/viewer-api";
import { Await, Empty, StateBadge } from "../components/common.tsx";
import { DifferencePlot } from "../components/difference-plot.tsx";
import { VirtualList } from "../components/virtual-list.tsx";
import { formatCredit, formatScore } from "../format.ts";
import { useApi, useLiveVersion, useLoad } from "../hooks.tsx";
import { href, withQuery, type Location } from "../route.ts";

const ROW_HEIGHT = 46;
// Their minimums fit an 820 px window.
const COLUMNS = "minmax(130px, 1.3fr) minmax(100px, 1fr) 64px 64px 72px 104px minmax(140px, 1fr)";
const STATUS_TONES: Record<ChangeStatus, string> = {
  regression: "failed",
  improvement: "completed",
  unchanged: "pending",
  unresolved: "interrupted",
  missing: "interrupted",
};

export function CompareView({ run, overview, location }: { run: string; overview: RunOverview; location: Location }) {
  const api = useApi();
  const version = useLiveVersion();
  const runs = useLoad(() => api.runs(), []);
  // Candidates: a model, or one of its variants (`model [variant]`).
  const models = overview.leaderboard.map((row) => row.candidate);
  const others = (runs.data?.runs ?? []).filter((candidate) => candidate.id !== run);
  const get = (key: string) => location.query.get(key) ?? undefined;
  // Default: the run before this one, else this run's first two models, else its baseline.
  const olderRun = others.find((candidate) => candidate.id < run)?.id ?? others[0]?.id;
  const against = get("against") ?? olderRun ?? (models.length >= 2 ? "models" : "baseline");
  const request: ComparisonRequest =
    against === "models"
      ? { a: run, b: run, modelA: get("ma") ?? models[0], modelB: get("mb") ?? models[1] }
      : against === "baseline"
        ? { a: "baseline", b: run }
        : { a: against, b: run };
  const waiting = runs.status === "loading" && get("against") === undefined;
  const comparison = useLoad(
    () => (waiting ? new Promise<ComparisonSummary>(() => {}) : api.compare(request)),
    [JSON.stringify(request), waiting],
    version,
  );
  const navigate = (changes: Record<string, string | null>) => {
    window.location.hash = withQuery(location, changes);
  };
  return (
    <div className="compare" data-testid="compare">
      <div className="filters">
        <label className="filter">
          Compare with
          <select
            name="against"
            value={against}
            onChange={(event) => navigate({ against: event.target.value, ma: null, mb: null, pair: null })}
          >
            {others.map((candidate) => (
              <option key={candidate.id} value={candidate.id}>
                run {candidate.id}
              </option>
            ))}
            <option value="baseline">baseline.json</option>
            <option value="models">two models of this run</option>
          </select>
        </label>
        {against === "models" ? (
          <>
            <ModelSelect
              label="a"
              value={request.modelA}
              models={models}
              onChange={(value) => navigate({ ma: value })}
            />
            <ModelSelect
              label="b"
              value={request.modelB}
              models={models}
              onChange={(value) => navigate({ mb: value })}
            />
          </>
        ) : null}
      </div>
      <Await state={comparison}>
        {(data) => <ComparisonBody summary={data} request={request} run={run} location={location} />}
      </Await>
    </div>
  );
}

function ModelSelect({
  label,
  value,
  models,
  onChange,
}: {
  label: string;
  value: string | undefined;
  models: string[];
  onChange: (value: string) => void;
}) {
  return (
    <label className="filter">
      model {label}
      <select name={`model-${label}`} value={value ?? ""} onChange={(event) => onChange(event.target.value)}>
        {models.map((model) => (
          <option key={model} value={model}>
            {model}
          </option>
        ))}
      </select>
    </label>
  );
}

function ComparisonBody({
  summary,
  request,
  run,
  location,
}: {
  summary: ComparisonSummary;
  request: ComparisonRequest;
  run: string;
  location: Location;
}) {
  const index = Math.max(0, Math.min(Number(location.query.get("pair") ?? 0) || 0, summary.pairs.length - 1));
  const pair = summary.pairs[index];
  const side = (label: string, value: ComparisonSummary["a"]) => (
    <div className="compare-side">
      <span className="side-tag">{label}</span>{" "}
      {value.kind === "baseline" ? (
        <strong>baseline.json</strong>
      ) : (
        <a href={href({ page: "run", run: value.runId })}>run {value.runId}</a>
      )}
      <span className="muted small"> {value.kind === "baseline" ? `set from run ${value.runId}` : value.name}</span>
    </div>
  );
  return (
    <>
      <div className="compare-sides">
        {side("a", summary.a)}
        <span className="muted">→</span>
        {side("b", summary.b)}
        <span className="muted small">differences are b − a</span>
      </div>
      {summary.pairs.length > 1 ? (
        <nav className="pair-tabs">
          {summary.pairs.map((candidate, position) => (
            <a
              key={position}
              href={withQuery(location, { pair: position })}
              className={position === index ? "active" : ""}
              data-pair={candidate.b}
            >
              {candidate.a === candidate.b ? candidate.a : `${candidate.a} → ${candidate.b}`}{" "}
              {candidate.counts.regression > 0 ? (
                <span className="badge tone-bad">{candidate.counts.regression}</span>
              ) : null}
            </a>
          ))}
        </nav>
      ) : null}
      {pair ? (
        <PairView pair={pair} index={index} summary={summary} request={request} run={run} location={location} />
      ) : (
        <Empty>Nothing to compare.</Empty>
      )}
    </>
  );
}

interface PairViewProps {
  pair: ModelPairSummary;
  /** The pair's position in the comparison: its changes are paged by it. */
  index: number;
  summary: ComparisonSummary;
  request: ComparisonRequest;
  run: string;
  location: Location;
}

function PairView({ pair, index, summary, request, run, location }: PairViewProps) {
  const api = useApi();
  const version = useLiveVersion();
  const sortValue = location.query.get("sort");
  const sort = CHANGE_SORTS.find((candidate) => candidate === sortValue);
  const statusValue = location.query.get("status");
  const status = CHANGE_STATUSES.find((candidate) => candidate === statusValue);
  const descending = location.query.get("desc") === "1";
  const key = JSON.stringify([request, index, sort, descending, status]);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const fetchPage = useCallback(
    (offset: number, limit: number) =>
      api.compareChanges(request, { pair: index, sort, descending, status, offset, limit }),
    [api, key],
  );
  const { paired } = pair;
  const sortLink = (column: (typeof CHANGE_SORTS)[number], label: string, className = "") => (
    <a
      className={`sort-link ${className} ${sort === column || (!sort && column === "status") ? "active" : ""}`}
      href={withQuery(location, { sort: column, desc: (sort ?? "status") === column && !descending ? "1" : null })}
      data-sort={column}
    >
      {label}
      {(sort ?? "status") === column ? (descending ? " ↓" : " ↑") : ""}
    </a>
  );
  return (
    <>
      <div
        className="compare-summary"
        data-testid="compare-summary"
        data-difference={paired.meanDifference ?? ""}
        data-ci-lower={paired.interval?.lower ?? ""}
        data-ci-upper={paired.interval?.upper ?? ""}
      >
        <div className="stat">
          <div className="stat-label">Score a → b</div>
          <div className="stat-value">
            {formatScore(pair.scoreA.value)} → {formatScore(pair.scoreB.value)}
          </div>
          <div className="muted small">
            {pair.a === pair.b ? pair.a : `${pair.a} → ${pair.b}`} ·{" "}
            <span data-testid="eval-count">{pair.evalCount}</span> evals
          </div>
        </div>
        <div className="stat">
          <div className="stat-label">Paired difference</div>
          <div className={`stat-value ${tone(paired.meanDifference)}`}>
            {paired.meanDifference === null ? "—" : `${signed(paired.meanDifference)} pts`}
          </div>
          <div className="muted small">
            {paired.interval
              ? `95% CI ${signed(paired.interval.lower)} to ${signed(paired.interval.upper)} · ${paired.pairedEvals} evals`
              : paired.reason}
          </div>
        </div>
        <div className="stat">
          <div className="stat-label">Criteria</div>
          <div className="stat-value">
            <a href={withQuery(location, { status: "regression" })} className="tone-text-bad" data-testid="regressions">
              {pair.counts.regression} worse
            </a>{" "}
            ·{" "}
            <a href={withQuery(location, { status: "improvement" })} className="tone-text-good">
              {pair.counts.improvement} better
            </a>
          </div>
          <div className="muted small">
            {pair.counts.unchanged} unchanged
            {pair.counts.unresolved > 0 ? ` · ${pair.counts.unresolved} unresolved` : ""}
            {pair.counts.missing > 0 ? ` · ${pair.counts.missing} on one side only` : ""}
            {status ? (
              <>
                {" "}
                · <a href={withQuery(location, { status: null })}>show all</a>
              </>
            ) : null}
          </div>
        </div>
        <DifferencePlot pair={pair} />
      </div>
      {paired.excluded.length > 0 ? (
        <p className="muted small">
          Not paired: {paired.excluded.map((entry) => `${entry.evalId} (${entry.reason})`).join(", ")}
        </p>
      ) : null}
      <VirtualList
        fetchPage={fetchPage}
        resetKey={`${key}:${version}`}
        rowHeight={ROW_HEIGHT}
        height="calc(100vh - 160px)"
        header={
          <div className="list-row list-head" style={{ gridTemplateColumns: COLUMNS }}>
            {sortLink("eval", "Eval · criterion")}
            <div>Eval a → b</div>
            {sortLink("a", "a", "number")}
            {sortLink("b", "b", "number")}
            {sortLink("difference", "b − a", "number")}
            {sortLink("status", "Change")}
            <div>Transcripts</div>
          </div>
        }
        empty={<div className="empty">No criterion {status ? `with status ${status}` : ""}.</div>}
        renderRow={(row) => <Change row={row} summary={summary} run={run} />}
      />
    </>
  );
}

function Change({ row, summary, run }: { row: ChangeRow; summary: ComparisonSummary; run: string }) {
  return (
    <div
      className={`list-row change-row change-${row.status}`}
      style={{ gridTemplateColumns: COLUMNS }}
      data-criterion={`${row.evalId}/${row.criterionId}`}
      data-status={row.status}
      data-difference={row.difference ?? ""}
    >
      <div className="ellipsis" title={`${row.evalId} · ${row.criterionId}`}>
        <span className="strong">{row.evalId}</span> <span className="muted">·</span>{" "}
        <span className="mono">{row.criterionId}</span>
      </div>
      <div className="muted small">
        {formatCredit(row.evalChange.a)} → {formatCredit(row.evalChange.b)}
      </div>
      <div className="number">{formatCredit(row.a)}</div>
      <div className="number">{formatCredit(row.b)}</div>
      <div className={`number strong ${tone(row.difference)}`}>
        {row.difference === null ? "—" : signed(100 * row.difference)}
      </div>
      <div>
        <StateBadge state={STATUS_TONES[row.status]} label={row.status} />
      </div>
      <div className="slot-links">
        {row.slots
          .filter((slot) => slot.a?.evalRunId && slot.b?.evalRunId)
          .map((slot) => (
            <a
              key={`${slot.case ?? ""}#${slot.repetition}`}
              className="chip"
              href={href(
                { page: "side-by-side", run },
                { runA: summary.a.runId, a: slot.a!.evalRunId, b: slot.b!.evalRunId },
              )}
              data-side-by-side={slot.repetition}
              title={`${slot.case === undefined ? "" : `case ${slot.case}, `}repetition ${slot.repetition}: a ${formatCredit(slot.a!.value)}, b ${formatCredit(slot.b!.value)}`}
            >
              {slot.case === undefined ? "" : `${slot.case} `}#{slot.repetition} a ⇆ b
            </a>
          ))}
        {row.slots.length === 0 ? (
          <span className="muted small">{summary.a.kind === "baseline" ? "baseline keeps no transcripts" : "—"}</span>
        ) : null}
      </div>
    </div>
  );
}

function tone(difference: number | null): string {
  return difference === null || Math.abs(difference) < 1e-9
    ? "muted"
    : difference < 0
      ? "tone-text-bad"
      : "tone-text-good";
}
