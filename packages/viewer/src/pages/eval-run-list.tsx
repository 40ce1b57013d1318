// Every eval run of the run, filtered and sorted by the URL's query, virtualized so that 10,000 rows scroll freely.
import { useCallback, useState } from "react";
import {
  describeState,
  EVAL_RUN_SORTS,
  type EvalRunQuery,
  type EvalRunState,
  type RunOverview,
} from "openeval/viewer-api";
import { ControlBadge, Credit, StateBadge } from "../components/common.tsx";
import { VirtualList } from "../components/virtual-list.tsx";
import { formatCost, formatDuration, shortId } from "../format.ts";
import { useApi, useLiveVersion } from "../hooks.tsx";
import { href, withQuery, type Location } from "../route.ts";

const STATES: EvalRunState[] = [
  "running",
  "completed",
  "failed",
  "timed_out",
  "cost_limited",
  "token_limited",
  "step_limited",
  "stopped",
  "interrupted",
];
const ROW_HEIGHT = 40;
const COLUMNS = "minmax(120px, 0.9fr) minmax(160px, 1.4fr) minmax(160px, 1.4fr) 50px 110px 90px 90px 80px 70px";

export function EvalRunList({ run, overview, location }: { run: string; overview: RunOverview; location: Location }) {
  const api = useApi();
  const version = useLiveVersion();
  const [total, setTotal] = useState<number | null>(null);
  const get = (key: string) => location.query.get(key) ?? undefined;
  const sortValue = get("sort");
  const query: Omit<EvalRunQuery, "offset" | "limit"> = {
    evalId: get("eval"),
    model: get("model"),
    candidate: get("candidate"),
    state: STATES.find((state) => state === get("state")),
    sort: EVAL_RUN_SORTS.find((sort) => sort === sortValue),
    descending: get("desc") === "1",
  };
  const key = JSON.stringify(query);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const fetchPage = useCallback(
    (offset: number, limit: number) => api.evalRuns(run, { ...query, offset, limit }),
    [api, run, key],
  );
  const navigate = (changes: Record<string, string | null>) => {
    window.location.hash = withQuery(location, changes);
  };
  return (
    <div className="eval-runs">
      <div className="filters">
        <Select
          label="Eval"
          value={query.evalId}
          options={overview.run.evals}
          onChange={(value) => navigate({ eval: value })}
        />
        <Select
          label="Candidate"
          value={query.candidate}
          options={overview.leaderboard.map((row) => row.candidate)}
          onChange={(value) => navigate({ candidate: value, model: null })}
        />
        <Select label="State" value={query.state} options={STATES} onChange={(value) => navigate({ state: value })} />
        <Select
          label="Sort"
          value={query.sort}
          options={EVAL_RUN_SORTS.filter((sort) => sort !== "started")}
          onChange={(value) => navigate({ sort: value })}
          allLabel="started"
        />
        <label className="filter">
          <input
            type="checkbox"
            checked={query.descending}
            onChange={(event) => navigate({ desc: event.target.checked ? "1" : null })}
          />{" "}
          descending
        </label>
        <span className="muted small filters-count">
          {total === null ? "" : `${total.toLocaleString("en-US")} eval runs`}
        </span>
      </div>
      <VirtualList
        fetchPage={fetchPage}
        resetKey={`${run}:${key}:${version}`}
        rowHeight={ROW_HEIGHT}
        onTotal={setTotal}
        header={
          <div className="list-row list-head" style={{ gridTemplateColumns: COLUMNS }}>
            <div>Eval run</div>
            <div>Eval</div>
            <div>Candidate</div>
            <div className="number">Rep</div>
            <div>State</div>
            <div className="number">Score</div>
            <div className="number">Time</div>
            <div className="number">Cost</div>
            <div className="number">Tools</div>
          </div>
        }
        empty={<div className="empty">No eval run matches these filters.</div>}
        renderRow={(row) => (
          <a
            className={`list-row ${row.active ? "" : "inactive"}`}
            style={{ gridTemplateColumns: COLUMNS }}
            href={href({ page: "eval-run", run, evalRun: row.id })}
            data-eval-run={row.id}
          >
            <div className="mono" title={row.id}>
              {shortId(row.id)}
            </div>
            <div className="ellipsis">
              {row.evalId}
              {row.case === undefined ? null : <span className="muted"> · {row.case}</span>}
            </div>
            <div className="ellipsis">
              {row.candidate} {row.control ? <ControlBadge /> : null}
            </div>
            <div className="number">{row.repetition}</div>
            <div>
              <StateBadge state={row.state} label={row.outcome} />
              {!row.active ? <span className="muted small"> superseded</span> : null}
            </div>
            <div className="number">
              <Credit
                value={row.value}
                title={row.judgeState ? `judge ${describeState(row.judgeState)}` : "not judged"}
              />
            </div>
            <div className="number">{formatDuration(row.elapsedMs)}</div>
            <div className="number">{row.state === "running" ? "—" : formatCost(row.costUSD)}</div>
            <div className="number">{row.toolCalls ?? "—"}</div>
          </a>
        )}
      />
    </div>
  );
}

function Select({
  label,
  value,
  options,
  onChange,
  allLabel = "all",
}: {
  label: string;
  value: string | undefined;
  options: readonly string[];
  onChange: (value: string | null) => void;
  allLabel?: string;
}) {
  return (
    <label className="filter">
      {label}
      <select value={value ?? ""} onChange={(event) => onChange(event.target.value || null)} name={label.toLowerCase()}>
        <option value="">{allLabel}</option>
        {options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    </label>
  );
}
