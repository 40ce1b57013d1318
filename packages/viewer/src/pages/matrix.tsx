// The eval × model matrix: each cell is the eval's mean credit for the model, with one square per repetition that
// opens that eval run (or its judgment), and a flag when its slots' judgments found integrity findings. Rows are
// virtualized and fetched a page at a time. An eval with cases drills down to its case × model table (`?cases=<eval>`).
import { useCallback } from "react";
import type { MatrixCell, RunOverview } from "openeval/viewer-api";
import { Credit } from "../components/common.tsx";
import { IntegrityFlagBadge } from "../components/integrity-flag.tsx";
import { VirtualList } from "../components/virtual-list.tsx";
import { creditClass, formatCredit } from "../format.ts";
import { useApi, useLiveVersion } from "../hooks.tsx";
import { href, type Location } from "../route.ts";
import { EvalCases } from "./eval-cases.tsx";
import { SlotSquare } from "../components/slot-square.tsx";
import { MatrixPictures } from "./matrix-pictures.tsx";

const ROW_HEIGHT = 52;

export function Matrix({ run, overview, location }: { run: string; overview: RunOverview; location: Location }) {
  const drilled = location.query.get("cases");
  if (drilled) return <EvalCases run={run} evalId={drilled} />;
  return <EvalMatrix run={run} overview={overview} />;
}

function EvalMatrix({ run, overview }: { run: string; overview: RunOverview }) {
  const api = useApi();
  const version = useLiveVersion();
  const candidates = overview.leaderboard.map((row) => row.candidate);
  const fetchPage = useCallback((offset: number, limit: number) => api.matrix(run, offset, limit), [api, run]);
  const columns = `minmax(220px, 1.4fr) repeat(${Math.max(candidates.length, 1)}, minmax(180px, 1fr))`;
  return (
    <div className="matrix" data-testid="matrix">
      <MatrixPictures run={run} />
      <VirtualList
        fetchPage={fetchPage}
        resetKey={`${run}:${version}`}
        rowHeight={ROW_HEIGHT}
        pageSize={100}
        header={
          <div className="matrix-row matrix-head" style={{ gridTemplateColumns: columns }}>
            <div>Eval</div>
            {candidates.map((candidate) => (
              <div key={candidate}>{candidate}</div>
            ))}
          </div>
        }
        renderRow={(row) => (
          <div className="matrix-row" style={{ gridTemplateColumns: columns }} data-eval={row.evalId}>
            <div className="matrix-eval">
              <a href={href({ page: "run", run }, { tab: "eval-runs", eval: row.evalId })}>{row.evalId}</a>
              {row.cases ? (
                <>
                  {" "}
                  <a
                    className="button small"
                    data-testid="drill-cases"
                    href={href({ page: "run", run }, { tab: "matrix", cases: row.evalId })}
                  >
                    {row.cases.length} cases ▸
                  </a>
                </>
              ) : null}
              <div className="muted small">{(overview.criteria[row.evalId] ?? []).join(", ") || "no judgment yet"}</div>
            </div>
            {row.cells.map((cell) => (
              <MatrixCellView key={cell.candidate} run={run} cell={cell} evalId={row.evalId} />
            ))}
          </div>
        )}
      />
    </div>
  );
}

function MatrixCellView({ run, cell, evalId }: { run: string; cell: MatrixCell; evalId: string }) {
  const bounds =
    cell.score.value === null
      ? `bounds ${formatCredit(cell.score.lower)}–${formatCredit(cell.score.upper)}`
      : undefined;
  // The flag opens the first flagged slot's eval run, whose page lists the findings.
  const flagged = cell.slots.find((slot) => slot.integrity !== null && slot.evalRunId !== null);
  return (
    <div
      className={`matrix-cell ${creditClass(cell.score.value)}-bg`}
      data-model={cell.model}
      data-variant={cell.variant ?? "current"}
    >
      <a
        href={href({ page: "run", run }, { tab: "eval-runs", eval: evalId, candidate: cell.candidate })}
        title={bounds}
      >
        <Credit value={cell.score.value} />
      </a>
      {cell.integrity ? (
        <IntegrityFlagBadge
          flag={cell.integrity}
          href={flagged ? href({ page: "eval-run", run, evalRun: flagged.evalRunId! }) : undefined}
        />
      ) : null}
      <span className="slots">
        {cell.slots.map((slot) => (
          <SlotSquare key={`${slot.case ?? ""}#${slot.repetition}`} run={run} slot={slot} />
        ))}
      </span>
    </div>
  );
}
