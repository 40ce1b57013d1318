// The drill-down from one eval of the matrix to its cases: a case × candidate table, each cell the case's mean credit
// for the candidate (its criteria over repetitions) with one square per repetition that opens that eval run.
import type { MatrixRow } from "openeval/viewer-api";
import { Await, Credit } from "../components/common.tsx";
import { creditClass, formatCredit } from "../format.ts";
import { useApi, useLiveVersion, useLoad } from "../hooks.tsx";
import { href } from "../route.ts";
import { SlotSquare } from "../components/slot-square.tsx";

export function EvalCases({ run, evalId }: { run: string; evalId: string }) {
  const api = useApi();
  const version = useLiveVersion();
  const row = useLoad(() => api.matrixRow(run, evalId), [run, evalId], version);
  return (
    <section className="eval-cases" aria-label={`cases of ${evalId}`} data-testid="eval-cases">
      <p>
        <a href={href({ page: "run", run }, { tab: "matrix" })}>← every eval</a>
      </p>
      <h3>Cases of {evalId}</h3>
      <Await state={row}>{(data) => <CaseTable run={run} row={data} />}</Await>
    </section>
  );
}

function CaseTable({ run, row }: { run: string; row: MatrixRow }) {
  if (!row.cases) return <p className="muted">The eval {row.evalId} has no cases: its matrix row is its only score.</p>;
  return (
    <table className="table case-table">
      <thead>
        <tr>
          <th>Case</th>
          {row.cells.map((cell) => (
            <th key={cell.candidate}>{cell.candidate}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        <tr className="case-eval-row">
          <th scope="row">whole eval (mean of cases)</th>
          {row.cells.map((cell) => (
            <td key={cell.candidate} data-candidate={cell.candidate}>
              <Credit value={cell.score.value} />
            </td>
          ))}
        </tr>
        {row.cases.map((caseId, position) => (
          <tr key={caseId} data-case={caseId}>
            <th scope="row">{caseId}</th>
            {row.cells.map((cell) => {
              const score = cell.cases?.[position]?.score ?? { value: null, lower: 0, upper: 1 };
              const bounds =
                score.value === null ? `bounds ${formatCredit(score.lower)}–${formatCredit(score.upper)}` : undefined;
              return (
                <td
                  key={cell.candidate}
                  className={`${creditClass(score.value)}-bg`}
                  data-candidate={cell.candidate}
                  data-value={score.value ?? ""}
                >
                  <Credit value={score.value} title={bounds} />
                  <span className="slots">
                    {cell.slots
                      .filter((slot) => slot.case === caseId)
                      .map((slot) => (
                        <SlotSquare key={slot.repetition} run={run} slot={slot} />
                      ))}
                  </span>
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
