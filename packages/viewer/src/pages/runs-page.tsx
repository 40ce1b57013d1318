// The runs of a results folder, newest first.
import { Await, Empty, StateBadge } from "../components/common.tsx";
import { formatDate } from "../format.ts";
import { useApi, useLoad } from "../hooks.tsx";
import { href } from "../route.ts";

export function RunsPage() {
  const api = useApi();
  const runs = useLoad(() => api.runs(), []);
  return (
    <>
      <div className="page-title">
        <h1>Runs</h1>
        {api.canRun ? (
          <a className="button" href={href({ page: "launch" })} data-testid="start-run">
            Run…
          </a>
        ) : null}
      </div>
      <Await state={runs}>
        {({ runs: list, defaultRunId }) =>
          list.length === 0 ? (
            <Empty>
              No runs yet. Start one with <code>npx openeval run</code>.
            </Empty>
          ) : (
            <table className="table runs-table" data-testid="runs">
              <thead>
                <tr>
                  <th>Run</th>
                  <th>Started</th>
                  <th>Models</th>
                  <th className="number">Evals</th>
                  <th className="number">Repetitions</th>
                  <th className="number">Judged</th>
                  <th>Status</th>
                </tr>
              </thead>
              <tbody>
                {list.map((run) => (
                  <tr key={run.id} className={run.id === defaultRunId ? "highlight-row" : undefined}>
                    <td>
                      <a href={href({ page: "run", run: run.id })} className="strong">
                        {run.id}
                      </a>
                      <div className="muted small">{run.name}</div>
                    </td>
                    <td>{formatDate(run.createdAt)}</td>
                    <td>
                      {run.models.map((model) => (
                        <span key={model} className="chip">
                          {model}
                        </span>
                      ))}
                      {run.variants.length > 0 ? (
                        <div className="muted small" data-testid="run-variants">
                          variants: current, {run.variants.join(", ")}
                        </div>
                      ) : null}
                    </td>
                    <td className="number">{run.evals.length}</td>
                    <td className="number">{run.repetitions}</td>
                    <td className="number">
                      {run.counts ? (
                        `${run.counts.judged} / ${run.counts.slots}`
                      ) : (
                        <span className="muted" title="A large run: opened when you look at it">
                          —
                        </span>
                      )}
                    </td>
                    <td>
                      {run.live ? (
                        <StateBadge state="running" label="live" />
                      ) : run.counts === null ? null : run.counts.complete ? (
                        <StateBadge state="completed" label="complete" />
                      ) : (
                        <StateBadge state="interrupted" label="incomplete" />
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </Await>
    </>
  );
}
