// Two eval runs of one slot side by side — the same eval and repetition in two runs, or two models of one run —
// each with its judgment and transcript, so a regression can be read where it happened.
import type { EvalRunDetail } from "openeval/viewer-api";
import { Await, ControlBadge, Credit, Empty, StateBadge } from "../components/common.tsx";
import { formatDuration, formatUSD, shortId } from "../format.ts";
import { useApi, useLoad } from "../hooks.tsx";
import { href, type Location } from "../route.ts";
import { evalRunTranscript, Transcript } from "./transcript.tsx";

export function SideBySidePage({ run, location }: { run: string; location: Location }) {
  const a = location.query.get("a");
  const b = location.query.get("b");
  const runA = location.query.get("runA") ?? run;
  if (!a || !b)
    return (
      <Empty>Name two eval runs: ?a=&lt;eval run&gt;&amp;runA=&lt;its run&gt;&amp;b=&lt;eval run of this run&gt;</Empty>
    );
  return (
    <>
      <div className="page-title">
        <h1>Side by side</h1>
      </div>
      <div className="side-by-side" data-testid="side-by-side">
        <SideColumn label="a" run={runA} evalRun={a} />
        <SideColumn label="b" run={run} evalRun={b} />
      </div>
    </>
  );
}

function SideColumn({ label, run, evalRun }: { label: string; run: string; evalRun: string }) {
  const api = useApi();
  const detail = useLoad(() => api.evalRun(run, evalRun), [run, evalRun]);
  return (
    <section className="side-column" data-side={label} data-eval-run={evalRun}>
      <Await state={detail}>
        {(data) => (
          <>
            <ColumnHeader label={label} run={run} detail={data} />
            <Transcript
              source={evalRunTranscript(api, run, data)}
              location={{ route: { page: "eval-run", run, evalRun }, query: new URLSearchParams() }}
            />
          </>
        )}
      </Await>
    </section>
  );
}

function ColumnHeader({ label, run, detail }: { label: string; run: string; detail: EvalRunDetail }) {
  const { evalRun } = detail;
  const active = detail.judgeRuns.find((judgeRun) => judgeRun.active) ?? null;
  return (
    <div className="side-column-header">
      <div>
        <span className="side-tag">{label}</span> <strong>{evalRun.slot.evalId}</strong>{" "}
        <span className="muted">×</span> <span data-testid="candidate">{detail.candidate}</span>{" "}
        <span className="muted">#{evalRun.slot.repetition}</span> {evalRun.control ? <ControlBadge /> : null}
      </div>
      <div className="muted small">
        run <a href={href({ page: "run", run })}>{run}</a> ·{" "}
        <a href={href({ page: "eval-run", run, evalRun: evalRun.id })}>eval run {shortId(evalRun.id)}</a> ·{" "}
        <StateBadge state={evalRun.state} /> · {formatDuration(evalRun.elapsedMs)} ·{" "}
        {formatUSD(evalRun.metrics?.cost.usd)}
        {active ? (
          <>
            {" "}
            ·{" "}
            <a href={href({ page: "judge-run", run, judgeRun: active.id })} data-judge-run={active.id}>
              judgment
            </a>{" "}
            <Credit value={active.value} />
          </>
        ) : null}
      </div>
      {active ? <JudgmentCriteria run={run} judgeRun={active.id} /> : null}
    </div>
  );
}

/** The slot's judgment per criterion, with the judge's reason: what differs between the two sides. */
function JudgmentCriteria({ run, judgeRun }: { run: string; judgeRun: string }) {
  const api = useApi();
  const detail = useLoad(() => api.judgeRun(run, judgeRun), [run, judgeRun]);
  if (!detail.data) return null;
  return (
    <ul className="side-criteria" data-testid="side-criteria">
      {detail.data.criteria.map((criterion) => (
        <li key={criterion.id} data-criterion={criterion.id}>
          <Credit value={criterion.value} /> <span className="mono">{criterion.id}</span>{" "}
          {criterion.reason ? <span className="muted small">— {criterion.reason}</span> : null}
        </li>
      ))}
    </ul>
  );
}
