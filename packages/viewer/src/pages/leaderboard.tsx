// The model leaderboard: the run summary per model — score with completion bounds (and CI once the statistics
// stage reports it), judged slots, failures, cost, time and verdict. Controls are labelled as such.
import type { ContributorWord, LeaderboardRow, RunOverview, VerdictWords } from "openeval/viewer-api";
import {
  BoundsAndIntervalHeads,
  ControlBadge,
  Dash,
  Empty,
  ScoreBar,
  StateBadge,
  UnsandboxedBadge,
} from "../components/common.tsx";
import { ScoreIntervalPlot, TradeOffPlot } from "../components/leaderboard-plots.tsx";
import { formatDate, formatDuration, formatScore, formatUSD } from "../format.ts";
import { href } from "../route.ts";
import { CategoryPictures } from "./category-pictures.tsx";
import { CategoryScores } from "./category-scores.tsx";
import { JudgeAgreement } from "./judge-agreement.tsx";

export function Leaderboard({ overview, run }: { overview: RunOverview; run: string }) {
  const rows = rankLeaderboard(overview.leaderboard);
  if (rows.length === 0) return <Empty>No model has results yet.</Empty>;
  return (
    <>
      <div className="plots" data-testid="leaderboard-plots">
        <ScoreIntervalPlot rows={rows} />
        <TradeOffPlot rows={rows} metric="cost" />
        <TradeOffPlot rows={rows} metric="time" />
      </div>
      <table className="table leaderboard" data-testid="leaderboard">
        <thead>
          <tr>
            <th className="rank">#</th>
            <th>Model</th>
            <th className="number">Score</th>
            <th className="bar-column" aria-label="Score with completion bounds" />
            <BoundsAndIntervalHeads />
            <th className="number">Judged</th>
            <th className="number">Failed</th>
            <th className="number">Cost</th>
            <th className="number" title="Median candidate time per eval run (and the 95th percentile)">
              Time
            </th>
            <th>Verdict</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            <LeaderboardLine key={`${row.model}\u0000${row.variant ?? ""}`} row={row} rank={index + 1} run={run} />
          ))}
        </tbody>
      </table>
      <VariantComparisons overview={overview} />
      <CategoryPictures overview={overview} rows={rows} />
      <CategoryScores overview={overview} />
      <JudgeAgreement overview={overview} />
      <VerdictPanel overview={overview} />
      <p className="muted small footnote">
        Score: 100 × the mean over evals of each eval's mean criterion credit (equal weights). While slots are
        unresolved the score is “—” and the bounds show where it can still land.
      </p>
    </>
  );
}

/** Each variant against current for the same model: the paired difference (variant − current) with its 95% CI. */
function VariantComparisons({ overview }: { overview: RunOverview }) {
  if (overview.variantComparisons.length === 0) return null;
  const points = (value: number) => `${value > 0 ? "+" : ""}${value.toFixed(1)}`;
  return (
    <table className="table" data-testid="variant-comparisons">
      <thead>
        <tr>
          <th>Variant vs current</th>
          <th className="number">Difference</th>
          <th className="number">95% CI</th>
          <th>Per eval</th>
          <th>Criteria</th>
        </tr>
      </thead>
      <tbody>
        {overview.variantComparisons.map(({ model, variant, comparison }) => (
          <tr key={`${model}\u0000${variant}`} data-model={model} data-variant={variant}>
            <td>{comparison.b}</td>
            <td className="number">
              {comparison.paired.meanDifference === null ? <Dash /> : points(comparison.paired.meanDifference)}
            </td>
            <td className="number" title={comparison.paired.reason ?? undefined}>
              {comparison.paired.interval ? (
                `${points(comparison.paired.interval.lower)} to ${points(comparison.paired.interval.upper)}`
              ) : (
                <Dash />
              )}
            </td>
            <td>
              {comparison.evals
                .map(
                  (evaluation) =>
                    `${evaluation.evalId} ${evaluation.difference === null ? evaluation.status : points(100 * evaluation.difference)}`,
                )
                .join(", ")}
            </td>
            <td>{`${comparison.counts.improvement} improved, ${comparison.counts.regression} regressed, ${comparison.counts.unchanged} unchanged`}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Best first (an unresolved score ranks by its lower bound). */
export function rankLeaderboard(rows: readonly LeaderboardRow[]): LeaderboardRow[] {
  return [...rows].sort((a, b) => (b.score.value ?? b.score.lower) - (a.score.value ?? a.score.lower));
}

function LeaderboardLine({ row, rank, run }: { row: LeaderboardRow; rank: number; run: string }) {
  return (
    <tr data-model={row.model} data-variant={row.variant ?? "current"}>
      <td className="rank">{rank}</td>
      <td>
        <a className="strong" href={href({ page: "run", run }, { tab: "eval-runs", candidate: row.candidate })}>
          {row.candidate}
        </a>{" "}
        {row.control ? <ControlBadge /> : null}
        {row.unsandboxed ? <UnsandboxedBadge /> : null}
      </td>
      <td className="number score-cell" data-testid="score">
        {formatScore(row.score.value)}
      </td>
      <td className="bar-column">
        <ScoreBar value={row.score.value} lower={row.score.lower} upper={row.score.upper} />
      </td>
      <td className="number muted">
        {formatScore(row.score.lower)}–{formatScore(row.score.upper)}
      </td>
      <td className="number" data-testid="ci" title={row.ciNote ?? "95% bootstrap interval, clustered by eval"}>
        {row.ci ? `${row.ci.lower.toFixed(1)}–${row.ci.upper.toFixed(1)}` : <Dash />}
      </td>
      <td className="number">
        {row.judged} / {row.slots}
      </td>
      <td className={`number ${row.failed > 0 ? "tone-text-bad" : "muted"}`}>{row.failed}</td>
      <td className="number">
        {row.costUSD === null && row.unknownCost > 0 ? "unknown" : formatUSD(row.costUSD)}
        {row.unknownCost > 0 ? (
          <span title={`${row.unknownCost} eval runs reported no cost: the total is a lower bound`}>+</span>
        ) : null}
        <div className="muted small">{formatUSD(row.meanCostUSD)} each</div>
        <div className="muted small" data-testid="judge-cost">
          judge {formatUSD(row.judgeCostUSD)} · total {formatUSD(row.totalCostUSD)}
        </div>
      </td>
      <td className="number">
        {formatDuration(row.medianElapsedMs)}
        <div className="muted small">p95 {formatDuration(row.p95ElapsedMs)}</div>
      </td>
      <td data-testid="verdict">
        {row.control ? (
          <span className="muted small">not in verdict</span>
        ) : row.verdict === null ? (
          <Dash />
        ) : (
          <VerdictBadge words={row.verdict} />
        )}
      </td>
    </tr>
  );
}

/** A verdict's headline as the server words it (the CLI's words), with why as its tooltip. */
export function VerdictBadge({ words }: { words: VerdictWords }) {
  return (
    <span title={words.reason ?? undefined} data-headline={words.headline}>
      <StatusBadge status={words.headline} />
    </span>
  );
}

/** A verdict headline or a contributor's word; a pass over nothing and "skipped" are muted, undecided ones a warning. */
function StatusBadge({ status }: { status: VerdictWords["headline"] | ContributorWord }) {
  const state =
    status === "pass"
      ? "completed"
      : status === "fail"
        ? "failed"
        : status === "incomplete" || status === "unknown"
          ? "interrupted"
          : "skipped";
  return <StateBadge state={state} label={status} />;
}

/** The verdict's contributors (code-judge, llm-judge, gates, regression, integrity, invariants): each one's status and what failed it. */
function VerdictPanel({ overview }: { overview: RunOverview }) {
  const { verdict } = overview;
  if (!verdict) return <p className="muted small footnote">{overview.verdictNote}</p>;
  return (
    <div className="verdict-panel" data-testid="verdict-panel">
      <div className="verdict-head">
        <span className="strong">Verdict</span>{" "}
        {overview.verdictWords ? <VerdictBadge words={overview.verdictWords} /> : null}
        {overview.verdictWords?.reason ? (
          <span className="small" data-testid="verdict-reason">
            {overview.verdictWords.reason}
          </span>
        ) : null}
        <span className="muted small">
          {verdict.complete
            ? "every slot of a real model judged"
            : `${verdict.unjudged.length} slot(s) of real models unjudged`}{" "}
          · controls never enter the verdict
        </span>
      </div>
      {overview.verdictNote ? (
        <p className="small tone-text-warn" data-testid="verdict-note">
          Note: {overview.verdictNote}
        </p>
      ) : null}
      {overview.summaryRecordedAt ? (
        <p
          className="muted small"
          data-testid="summary-recorded"
          title="Neither the run's records nor its benchmark folder have changed since: this is the summary `openeval report` gives now"
        >
          Verdict, CIs and comparisons as the runner recorded them at {formatDate(overview.summaryRecordedAt)}
        </p>
      ) : null}
      <div className="contributors">
        {verdict.contributors.map((contributor) => (
          <div
            key={contributor.id}
            className={`contributor status-${contributor.word.replaceAll(" ", "-")}`}
            data-contributor={contributor.id}
          >
            <div>
              <span className="mono strong">{contributor.id}</span> <StatusBadge status={contributor.word} />
            </div>
            <div className="muted small">{contributor.detail}</div>
            {contributor.failing.length > 0 ? (
              <div className="small tone-text-bad">
                failing: {contributor.failing.slice(0, 8).join(", ")}
                {contributor.failing.length > 8 ? ` and ${contributor.failing.length - 8} more` : ""}
              </div>
            ) : null}
          </div>
        ))}
      </div>
      <Invariants invariants={overview.invariants ?? []} />
    </div>
  );
}

/** Each declared invariant as its recorded evaluation found it (the viewer never runs one), its output on demand. */
function Invariants({ invariants }: { invariants: NonNullable<RunOverview["invariants"]> }) {
  if (invariants.length === 0) return null;
  const word = (status: (typeof invariants)[number]["status"]): ContributorWord =>
    status === "holds" ? "pass" : status === "not-evaluated" ? "unknown" : "fail";
  return (
    <div className="invariants" data-testid="invariants">
      <div className="strong small">Invariants</div>
      {invariants.map((invariant) => (
        <details key={invariant.id} className="invariant" data-invariant={invariant.id}>
          <summary>
            <span className="mono">{invariant.id}</span> <StatusBadge status={word(invariant.status)} />{" "}
            <span className="small">
              {invariant.status === "violated"
                ? `violated (exit code ${invariant.exitCode})`
                : invariant.status === "holds"
                  ? "holds"
                  : `${invariant.status === "unevaluable" ? "unevaluable" : "not evaluated"}: ${invariant.reason ?? ""}`}
            </span>
            {invariant.description ? <span className="muted small"> · {invariant.description}</span> : null}
          </summary>
          <div className="muted small">
            <span className="mono">{invariant.argv.join(" ")}</span> over {invariant.over}
            {invariant.evaluation
              ? ` · evaluated ${formatDate(invariant.evaluation.startedAt)} (${invariant.evaluation.id})`
              : ""}
          </div>
          {invariant.stdout || invariant.stderr ? (
            <pre className="invariant-log">
              {invariant.stderr || invariant.stdout}
              {invariant.logsTruncated ? "\n… (truncated)" : ""}
            </pre>
          ) : null}
        </details>
      ))}
    </div>
  );
}
