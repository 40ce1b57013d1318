// The run page's Queue tab: the latest invocation's running, queued and finished work with elapsed times, spend
// against --max-cost and the ETA. It refetches on every live update and ticks each second in between; once the
// runner finishes, it shows how the invocation ended and the leaderboard it produced.
import { useEffect, useState } from "react";
import type { QueueAnswer, QueueItem, QueueList, RunOverview } from "openeval/viewer-api";
import { ScoreIntervalPlot } from "../components/leaderboard-plots.tsx";
import { Await, Empty, Section, StateBadge } from "../components/common.tsx";
import { formatDate, formatDuration, formatUSD, shortId } from "../format.ts";
import { useApi, useLiveVersion, useLoad } from "../hooks.tsx";
import { href } from "../route.ts";
import { rankLeaderboard, VerdictBadge } from "./leaderboard.tsx";

export function QueueView({ run, overview }: { run: string; overview: RunOverview }) {
  const api = useApi();
  const version = useLiveVersion();
  const queue = useLoad(() => api.queue(run), [run], version);
  return <Await state={queue}>{(data) => <QueueBody run={run} queue={data} overview={overview} />}</Await>;
}

/** The run's verdict in the header's words (the overview's), so that banner and header never disagree. */
function RunVerdict({ overview }: { overview: RunOverview }) {
  const words = overview.verdictWords;
  if (words === null) return <span className="muted">{overview.verdictNote ?? "no verdict"}</span>;
  return (
    <span data-testid="queue-verdict">
      verdict <VerdictBadge words={words} />
      {words.reason ? ` ${words.reason}` : ""}
    </span>
  );
}

function useNow(running: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return;
    const timer = window.setInterval(() => setNow(Date.now()), 1_000);
    return () => window.clearInterval(timer);
  }, [running]);
  return now;
}

function QueueBody({ run, queue, overview }: { run: string; queue: QueueAnswer; overview: RunOverview }) {
  const now = useNow(queue.status === "running");
  const since = queue.status === "running" ? Math.max(0, now - queue.at) : 0;
  if (!queue.invocation) return <Empty>{queue.etaNote}</Empty>;
  const { invocation } = queue;
  const elapsed =
    (queue.summary ? Date.parse(queue.summary.finishedAt) : queue.at + since) - Date.parse(invocation.startedAt);
  const eta = queue.etaMs === null ? null : Math.max(0, queue.etaMs - since);
  const cap = invocation.maxCostUSD;
  return (
    <div className="queue" data-testid="queue" data-status={queue.status}>
      <div className={`queue-banner status-${queue.status}`} data-testid="queue-status">
        {queue.status === "running" ? (
          <>
            <StateBadge state="running" label="running" /> started {formatDate(invocation.startedAt)} ·{" "}
            {invocation.concurrency} lane{invocation.concurrency === 1 ? "" : "s"} · pid {invocation.pid}
          </>
        ) : queue.status === "finished" && queue.summary ? (
          <>
            <StateBadge state="completed" label="finished" /> {formatDate(queue.summary.finishedAt)} after{" "}
            {formatDuration(elapsed)} · <RunVerdict overview={overview} /> ·{" "}
            <a href={href({ page: "run", run }, { tab: "leaderboard" })} data-testid="queue-summary-link">
              the leaderboard →
            </a>
          </>
        ) : (
          <>
            <StateBadge state="interrupted" label="stopped" /> The runner went away before this invocation finished;{" "}
            <code>openeval run</code> resumes it.
          </>
        )}
      </div>
      {queue.status === "finished" ? (
        <div className="queue-summary" data-testid="queue-summary">
          <ScoreIntervalPlot rows={rankLeaderboard(overview.leaderboard)} />
        </div>
      ) : null}
      <div className="run-stats queue-stats">
        <Stat label="Running" value={String(queue.running.total)} />
        <Stat label="Queued" value={String(queue.queued.total)} />
        <Stat
          label="Finished"
          value={String(queue.finished.total)}
          note={queue.failed > 0 ? `${queue.failed} failed` : undefined}
        />
        <Stat label="Elapsed" value={formatDuration(elapsed)} />
        <Stat
          label="ETA"
          value={queue.status === "finished" ? "done" : eta === null ? "—" : formatDuration(eta)}
          note={queue.etaNote ?? undefined}
          testId="queue-eta"
        />
        <div className="stat spend-stat" data-testid="queue-spend">
          <div className="stat-label">Spend{cap !== null ? " / --max-cost" : ""}</div>
          <div className="stat-value">
            {formatUSD(queue.spendUSD)}
            {queue.unknownCost > 0 ? (
              <span title={`${queue.unknownCost} finished eval runs reported no cost`}>+</span>
            ) : null}
            {cap !== null ? <span className="muted"> / {formatUSD(cap)}</span> : null}
          </div>
          {cap !== null ? (
            <div
              className="spend-bar"
              role="meter"
              aria-valuemin={0}
              aria-valuemax={cap}
              aria-valuenow={queue.spendUSD}
              aria-label="Spend against --max-cost"
            >
              <div style={{ width: `${Math.min(100, cap === 0 ? 100 : (100 * queue.spendUSD) / cap)}%` }} />
            </div>
          ) : (
            <div className="muted small">
              no --max-cost cap
              {invocation.estimateUSD !== null ? ` · plan estimate ${formatUSD(invocation.estimateUSD)}` : ""}
            </div>
          )}
        </div>
      </div>
      <div className="queue-lists">
        <QueueSection title="Running" list={queue.running} run={run} since={since} testId="queue-running" />
        <QueueSection title="Queued" list={queue.queued} run={run} since={0} testId="queue-queued" />
        <QueueSection
          title="Finished (latest first)"
          list={queue.finished}
          run={run}
          since={0}
          testId="queue-finished"
        />
      </div>
    </div>
  );
}

function Stat({ label, value, note, testId }: { label: string; value: string; note?: string; testId?: string }) {
  return (
    <div className="stat" data-testid={testId}>
      <div className="stat-label">{label}</div>
      <div className="stat-value">{value}</div>
      {note ? <div className="muted small">{note}</div> : null}
    </div>
  );
}

function QueueSection({
  title,
  list,
  run,
  since,
  testId,
}: {
  title: string;
  list: QueueList;
  run: string;
  since: number;
  testId: string;
}) {
  return (
    <Section title={`${title} · ${list.total}`}>
      {list.total === 0 ? (
        <div className="muted small queue-empty">none</div>
      ) : (
        <table className="table queue-table" data-testid={testId}>
          <tbody>
            {list.items.map((item, index) => (
              <QueueLine
                key={`${item.kind}-${item.evalRunId ?? ""}-${item.judgeRunId ?? ""}-${index}`}
                item={item}
                run={run}
                since={since}
              />
            ))}
          </tbody>
        </table>
      )}
      {list.total > list.items.length ? (
        <div className="muted small">
          … and {list.total - list.items.length} more (
          <a href={href({ page: "run", run }, { tab: "eval-runs" })}>every eval run</a>)
        </div>
      ) : null}
    </Section>
  );
}

function QueueLine({ item, run, since }: { item: QueueItem; run: string; since: number }) {
  const target = item.judgeRunId
    ? href({ page: "judge-run", run, judgeRun: item.judgeRunId })
    : item.evalRunId
      ? href({ page: "eval-run", run, evalRun: item.evalRunId })
      : null;
  const slot = `${item.evalId} × ${item.candidate} #${item.repetition}`;
  return (
    <tr data-kind={item.kind} data-state={item.state} data-candidate={item.candidate}>
      <td className="nowrap">
        <span className={`badge ${item.kind === "judge" ? "tone-control" : "tone-muted"}`}>{item.kind}</span>
      </td>
      <td className="ellipsis">{target ? <a href={target}>{slot}</a> : slot}</td>
      <td>
        {item.state === "queued" ? <span className="muted small">queued</span> : <StateBadge state={item.state} />}
      </td>
      <td className="number">
        {item.elapsedMs === null ? "" : formatDuration(item.elapsedMs + (item.state === "running" ? since : 0))}
      </td>
      <td className="number muted small">{item.costUSD === null ? "" : formatUSD(item.costUSD)}</td>
      <td className="mono muted small">
        {item.judgeRunId ? shortId(item.judgeRunId) : item.evalRunId ? shortId(item.evalRunId) : ""}
      </td>
    </tr>
  );
}
