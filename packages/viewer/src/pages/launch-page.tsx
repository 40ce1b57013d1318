// Starting a run from the page: choose the run (new, or one to resume), evals and cases, models, variants and
// repetitions, and a cost cap; the page shows what `openeval plan` would print for that choice, and starts only once
// the person ticks the sentence that states the run's maximum cost (or that nothing bounds it). The run is
// `openeval run` itself; once started, the run's page opens on its live queue.
import { useRef, useState, type ReactNode } from "react";
import type { RunChoices, RunPlanAnswer, RunSelection } from "openeval/viewer-api";
import { Await } from "../components/common.tsx";
import { formatCost } from "../format.ts";
import { useApi, useLoad } from "../hooks.tsx";
import { href, type Location } from "../route.ts";

/** Plan rows shown; the counts above them cover every row. */
const SHOWN_WORK = 200;

interface Choice {
  run: string;
  /** null: every one offered (no --only-* flag). */
  evals: string[] | null;
  cases: string[] | null;
  models: string[] | null;
  variants: string[] | null;
  repetitions: number[] | null;
  maxCost: string;
}

export function LaunchPage({ location }: { location: Location }) {
  const api = useApi();
  const [choice, setChoice] = useState<Choice>({
    run: location.query.get("run") ?? "new",
    evals: null,
    cases: null,
    models: null,
    variants: null,
    repetitions: null,
    maxCost: "",
  });
  const selection = toSelection(choice);
  const problem = problemOf(choice);
  const plan = useLoad(
    () => (api.canRun && !problem ? api.planRun(selection) : Promise.resolve(null)),
    [JSON.stringify(selection), problem],
  );
  // The form stays on screen while a new choice is planned (a new plan starts empty).
  const offered = useRef<RunChoices | null>(null);
  if (plan.data) offered.current = plan.data.choices;
  if (!api.canRun)
    return (
      <div className="empty" data-testid="launch-unavailable">
        This viewer cannot start runs ({api.mode === "static" ? "a static export" : "it is read-only"}): use{" "}
        <code>npx openeval run</code>.
      </div>
    );
  if (!offered.current) return <Await state={plan}>{() => null}</Await>;
  return (
    <section className="launch" aria-label="start a run">
      <div className="page-title">
        <h1>Run the benchmark</h1>
      </div>
      <SelectionForm choices={offered.current} choice={choice} onChange={setChoice} />
      {problem ? (
        <div className="error-box" data-testid="launch-problem">
          {problem}
        </div>
      ) : plan.status === "error" ? (
        <div className="error-box" data-testid="launch-problem">
          {plan.error.message}
        </div>
      ) : plan.status === "loading" || !plan.data ? (
        <p className="muted" data-testid="launch-planning">
          Planning…
        </p>
      ) : (
        <>
          <PlanView answer={plan.data} />
          <StartForm answer={plan.data} selection={selection} key={JSON.stringify(plan.data)} />
        </>
      )}
    </section>
  );
}

const GROUPS = ["evals", "cases", "models", "variants", "repetitions"] as const;

/** What stops the choice from being planned: a group with nothing ticked, or a cost cap that is not an amount. */
function problemOf(choice: Choice): string | null {
  const empty = GROUPS.find((group) => choice[group]?.length === 0);
  if (empty) return `Choose at least one of the ${empty}, or tick them all.`;
  const cap = choice.maxCost.trim();
  if (cap !== "" && !(Number(cap) >= 0))
    return `The cost cap "${cap}" is not an amount in USD; write one such as 2.5, or leave it empty for no cap.`;
  return null;
}

function toSelection(choice: Choice): RunSelection {
  const maxCost = Number(choice.maxCost);
  return {
    run: choice.run,
    ...(choice.evals ? { evals: choice.evals } : {}),
    ...(choice.cases ? { cases: choice.cases } : {}),
    ...(choice.models ? { models: choice.models } : {}),
    ...(choice.variants ? { variants: choice.variants } : {}),
    ...(choice.repetitions ? { repetitions: choice.repetitions } : {}),
    ...(choice.maxCost.trim() !== "" ? { maxCostUSD: maxCost } : {}),
  };
}

function SelectionForm({
  choices,
  choice,
  onChange,
}: {
  choices: RunChoices;
  choice: Choice;
  onChange: (choice: Choice) => void;
}) {
  const cases = choices.evals.flatMap((entry) => entry.cases);
  return (
    <form className="launch-form" aria-label="what to run" onSubmit={(event) => event.preventDefault()}>
      <label>
        Run
        <select value={choice.run} name="run" onChange={(event) => onChange({ ...choice, run: event.target.value })}>
          <option value="new">a new run</option>
          {choices.runs.map((run) => (
            <option key={run} value={run}>
              resume {run}
            </option>
          ))}
        </select>
      </label>
      <Checkboxes
        legend="Evals"
        name="eval"
        offered={choices.evals.map((entry) => entry.id)}
        chosen={choice.evals}
        onChange={(evals) => onChange({ ...choice, evals })}
      />
      {cases.length > 0 ? (
        <Checkboxes
          legend="Cases (choosing some leaves evals without cases out)"
          name="case"
          offered={cases}
          chosen={choice.cases}
          onChange={(chosen) => onChange({ ...choice, cases: chosen })}
        />
      ) : null}
      <Checkboxes
        legend="Models"
        name="model"
        offered={choices.models}
        chosen={choice.models}
        onChange={(models) => onChange({ ...choice, models })}
      />
      <Checkboxes
        legend="Variants"
        name="variant"
        offered={choices.variants}
        chosen={choice.variants}
        onChange={(variants) => onChange({ ...choice, variants })}
      />
      <Checkboxes
        legend="Repetitions"
        name="repetition"
        offered={choices.repetitions.map(String)}
        chosen={choice.repetitions?.map(String) ?? null}
        onChange={(repetitions) => onChange({ ...choice, repetitions: repetitions?.map(Number) ?? null })}
      />
      <label>
        Cost cap, USD (like --max-cost; work over it waits)
        <input
          name="max-cost"
          inputMode="decimal"
          value={choice.maxCost}
          onChange={(event) => onChange({ ...choice, maxCost: event.target.value })}
        />
      </label>
    </form>
  );
}

/** A group of checkboxes, every one ticked by default; `chosen` null means every one. */
function Checkboxes({
  legend,
  name,
  offered,
  chosen,
  onChange,
}: {
  legend: string;
  name: string;
  offered: string[];
  chosen: string[] | null;
  onChange: (chosen: string[] | null) => void;
}) {
  const ticked = new Set(chosen ?? offered);
  const toggle = (value: string) => {
    const next = offered.filter((entry) => (entry === value ? !ticked.has(entry) : ticked.has(entry)));
    onChange(next.length === offered.length ? null : next);
  };
  return (
    <fieldset className="launch-choices" data-choices={name}>
      <legend>{legend}</legend>
      {offered.map((value) => (
        <label key={value} className="launch-choice">
          <input type="checkbox" name={name} value={value} checked={ticked.has(value)} onChange={() => toggle(value)} />{" "}
          {value}
        </label>
      ))}
    </fieldset>
  );
}

function PlanView({ answer }: { answer: RunPlanAnswer }) {
  const counts = Object.entries(answer.counts).map(([action, count]) => `${count} ${action}`);
  return (
    <div className="launch-plan" data-testid="launch-plan">
      <h2>The plan</h2>
      <p>
        <span data-testid="plan-counts">{counts.join(", ") || "nothing to do"}</span>; estimated cost{" "}
        <strong data-testid="plan-estimate">
          {answer.estimateUSD === null ? "unknown (no cost history for some work)" : formatCost(answer.estimateUSD)}
        </strong>
        ; maximum cost{" "}
        <strong data-testid="plan-maximum">
          {answer.maximumUSD === null ? "unknown" : formatCost(answer.maximumUSD)}
        </strong>
        .
      </p>
      {answer.unbounded.length > 0 ? (
        <div className="error-box" data-testid="plan-unbounded">
          No limit bounds this work:
          <ul>
            {answer.unbounded.slice(0, SHOWN_WORK).map((work) => (
              <li key={`${work.action} ${work.slot}`}>
                {work.action} {work.slot}: {work.why}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <table className="table" data-testid="plan-work">
        <thead>
          <tr>
            <th>Action</th>
            <th>Slot</th>
            <th>Why</th>
          </tr>
        </thead>
        <tbody>
          {answer.work.slice(0, SHOWN_WORK).map((work) => (
            <tr key={work.slot} data-action={work.action}>
              <td>{work.action}</td>
              <td className="mono">{work.slot}</td>
              <td>{work.reason}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {answer.work.length > SHOWN_WORK ? (
        <p className="muted small">
          and {answer.work.length - SHOWN_WORK} more (every one is counted above; `openeval plan` lists them all)
        </p>
      ) : null}
    </div>
  );
}

function StartForm({ answer, selection }: { answer: RunPlanAnswer; selection: RunSelection }) {
  const api = useApi();
  const [confirmed, setConfirmed] = useState(false);
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const start = async () => {
    setState({ busy: true, error: null });
    try {
      const started = await api.startRun({ ...selection, confirm: { maximumUSD: answer.maximumUSD } });
      window.location.hash = href({ page: "run", run: started.runId }, { tab: "queue" });
    } catch (error) {
      setState({ busy: false, error: (error as Error).message });
    }
  };
  let blocked: ReactNode = null;
  if (answer.heldBy !== null)
    blocked = (
      <div className="error-box" data-testid="launch-held">
        openeval run (pid {answer.heldBy}) is working on {answer.runId}: it cannot start here until that one ends.
      </div>
    );
  return (
    <div className="launch-start">
      {blocked}
      <label className="launch-confirm">
        <input
          type="checkbox"
          name="confirm"
          checked={confirmed}
          disabled={blocked !== null}
          onChange={(event) => setConfirmed(event.target.checked)}
        />{" "}
        <span data-testid="launch-confirmation">{answer.confirmation}</span>
      </label>
      <button
        className="button"
        type="button"
        disabled={!confirmed || blocked !== null || state.busy}
        onClick={() => void start()}
      >
        {state.busy ? "Starting…" : "Start the run"}
      </button>
      {state.error ? (
        <div className="error-box" data-testid="launch-error">
          {state.error}
        </div>
      ) : null}
    </div>
  );
}
