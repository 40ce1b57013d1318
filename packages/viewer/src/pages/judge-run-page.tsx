// One judge run: each criterion's score, reason and citations (a click opens the cited message, tool call, event,
// metric or file of the eval run), the judge's returned JSON, verification receipts with their logs and artifacts
// (images inline), the rubric judge's own session with its metrics, the frozen judge source, process logs, and every
// file of the judge run's folder. A judgment an earlyStop check decided says so: it was made on a snapshot of the
// running candidate.
import { describeState, type JudgeRunDetail, type VerificationView } from "openeval/viewer-api";
import { Await, Code, ControlBadge, Empty, Json, KeyValues, Section, StateBadge } from "../components/common.tsx";
import { JudgeFailure } from "../components/judge-failure.tsx";
import { formatBytes, formatDate, formatDuration, shortId } from "../format.ts";
import { useApi, useLiveVersion, useLoad } from "../hooks.tsx";
import { href, withQuery, type Location } from "../route.ts";
import { FileContent } from "./files-view.tsx";
import { CriterionCard } from "./criterion-card.tsx";
import { JudgeSessionSection } from "./judge-session.tsx";
import { JudgePanelSection } from "./judge-panel.tsx";
import { ReviewsSection } from "./reviews.tsx";
import { useState } from "react";

export function JudgeRunPage({ run, judgeRun, location }: { run: string; judgeRun: string; location: Location }) {
  const api = useApi();
  const version = useLiveVersion();
  // A review recorded from this page reloads it at once, without waiting for the live update.
  const [reviewed, setReviewed] = useState(0);
  const detail = useLoad(() => api.judgeRun(run, judgeRun), [run, judgeRun], `${version}:${reviewed}`);
  return (
    <Await state={detail}>
      {(data) => (
        <JudgeRunView
          run={run}
          detail={data}
          location={location}
          onReviewed={() => setReviewed((count) => count + 1)}
        />
      )}
    </Await>
  );
}

function JudgeRunView({
  run,
  detail,
  location,
  onReviewed,
}: {
  run: string;
  detail: JudgeRunDetail;
  location: Location;
  onReviewed: () => void;
}) {
  const { judgeRun } = detail;
  return (
    <>
      <JudgeRunTitle run={run} detail={detail} />
      {judgeRun.decidedEarly ? (
        <DecidedEarlyNotice run={run} judgeRun={judgeRun} decidedEarly={judgeRun.decidedEarly} />
      ) : null}
      {detail.integrityError ? (
        <div className="error-box" data-testid="integrity-error">
          Integrity error: {detail.integrityError}
        </div>
      ) : null}
      <JudgeFailure run={run} evalRunId={judgeRun.evalRunId} state={judgeRun.state} error={judgeRun.error} />
      {judgeRun.error && judgeRun.state !== "failed" && judgeRun.state !== "timed_out" ? (
        <div className="error-box">{judgeRun.error}</div>
      ) : null}
      <CriteriaSection run={run} detail={detail} />
      <ReviewsSection run={run} detail={detail} onReviewed={onReviewed} />
      <JudgePanelSection run={run} detail={detail} />
      {detail.session ? <JudgeSessionSection detail={detail} session={detail.session} location={location} /> : null}
      {detail.verifications.length > 0 ? (
        <Section title="Verification">
          {detail.verifications.map((verification) => (
            <VerificationCard
              key={verification.directory}
              run={run}
              judgeRunId={judgeRun.id}
              verification={verification}
            />
          ))}
        </Section>
      ) : null}
      <ReturnedJsonSection detail={detail} />
      <Section
        title="Frozen judge source"
        actions={<span className="muted small">code/judge.js — the bundle that graded, as archived</span>}
      >
        {detail.source === null ? (
          <Empty>No code judge ran for this judgment.</Empty>
        ) : (
          <Code className="source">{detail.source}</Code>
        )}
      </Section>
      <Section title="Process logs">
        <div className="two-columns">
          <Log label="stdout" text={detail.logs.stdout} />
          <Log label="stderr" text={detail.logs.stderr} />
        </div>
      </Section>
      <JudgeRunFiles run={run} detail={detail} location={location} />
    </>
  );
}

type ShownJudgeRun = JudgeRunDetail["judgeRun"];

/** Which slot was judged, how and when, with a card back to the eval run it judged. */
function JudgeRunTitle({ run, detail }: { run: string; detail: JudgeRunDetail }) {
  const { judgeRun, evalRun } = detail;
  return (
    <div className="page-title">
      <div>
        <h1>
          Judgment of {judgeRun.slot.evalId} <span className="muted">×</span>{" "}
          <span data-testid="candidate">{detail.candidate}</span>{" "}
          <span className="muted">#{judgeRun.slot.repetition}</span> {evalRun?.control ? <ControlBadge /> : null}
        </h1>
        <div className="muted">
          Judge run <code>{judgeRun.id}</code> · {judgeRun.kind} · started {formatDate(judgeRun.startedAt)} ·{" "}
          {formatDuration(judgeRun.elapsedMs)} · <StateBadge state={judgeRun.state} />
          {judgeRun.unscored ? <StateBadge state="interrupted" label="unscored" /> : null}
        </div>
      </div>
      <div className="judgments">
        <a className="judgment-card" href={href({ page: "eval-run", run, evalRun: judgeRun.evalRunId })}>
          <div className="judgment-title">
            Eval run <span className="mono">{shortId(judgeRun.evalRunId)}</span>
          </div>
          <div>{evalRun ? <StateBadge state={evalRun.state} /> : null}</div>
          <div className="muted small">open the transcript →</div>
        </a>
      </div>
    </div>
  );
}

/** An earlyStop check's judgment was made on a snapshot of the running candidate, and is final. */
function DecidedEarlyNotice({
  run,
  judgeRun,
  decidedEarly,
}: {
  run: string;
  judgeRun: ShownJudgeRun;
  decidedEarly: NonNullable<ShownJudgeRun["decidedEarly"]>;
}) {
  return (
    <div className="notice" data-testid="decided-early">
      Decided early by check {decidedEarly.check} on a snapshot of the running candidate (
      <span className="mono" title={decidedEarly.checkpoint.hash}>
        {decidedEarly.checkpoint.hash.slice(0, 12)}
      </span>
      ); the candidate was stopped and this judgment is final.{" "}
      <a href={href({ page: "eval-run", run, evalRun: judgeRun.evalRunId })}>See every check of the eval run →</a>
    </div>
  );
}

function CriteriaSection({ run, detail }: { run: string; detail: JudgeRunDetail }) {
  return (
    <Section title="Criteria">
      {detail.criteria.length === 0 ? <Empty>No scores (the judge returned none, or grading failed).</Empty> : null}
      {detail.keptOnly ? (
        <p className="notice" data-testid="kept-scores">
          The judgment failed, so these scores are not counted: they are what the judges that did finish returned, kept
          as evidence.
        </p>
      ) : null}
      <div className="criteria" data-testid="criteria">
        {detail.criteria.map((criterion) => (
          <CriterionCard key={criterion.id} run={run} evalRunId={detail.judgeRun.evalRunId} criterion={criterion} />
        ))}
      </div>
    </Section>
  );
}

/** What judge.ts returned and what the rubric judge submitted: side by side when a judgment has both. */
function ReturnedJsonSection({ detail }: { detail: JudgeRunDetail }) {
  const { output } = detail.judgeRun;
  const submission = detail.rubricSubmission;
  return (
    <Section title="Returned JSON">
      {output === undefined && submission === null ? <Empty>The judge returned nothing.</Empty> : null}
      <div className={output !== undefined && submission !== null ? "two-columns" : ""}>
        {output !== undefined ? (
          <div>
            <div className="box-label">judge.ts returned</div>
            <Json value={output} />
          </div>
        ) : null}
        {submission !== null ? (
          <div>
            <div className="box-label">judge.md submission (rubric/submission.json)</div>
            <Json value={submission} />
          </div>
        ) : null}
      </div>
    </Section>
  );
}

/** Every file of the judge run's folder; `file` in the URL opens one (an image inline, text in the reader). */
function JudgeRunFiles({ run, detail, location }: { run: string; detail: JudgeRunDetail; location: Location }) {
  const api = useApi();
  const openFile = location.query.get("file");
  const judgeRunId = detail.judgeRun.id;
  return (
    <Section title="Files of this judge run" id="files">
      <div className="split">
        <nav className="file-list">
          {detail.files.map((file) => (
            <a
              key={file.path}
              href={withQuery(location, { file: file.path })}
              className={`file-link ${file.path === openFile ? "active" : ""}`}
              data-path={file.path}
            >
              <span className="mono ellipsis">{file.path}</span>
              <span className="muted small">{formatBytes(file.bytes)}</span>
            </a>
          ))}
        </nav>
        <div className="file-pane">
          {openFile === null ? (
            <Empty>
              Pick a file to read it
              {detail.files.some((file) => file.path.startsWith("rubric/"))
                ? ": the rubric judge's archive (job, agent, submission, tool log, its OpenCode session) is here too"
                : ""}
              .
            </Empty>
          ) : detail.files.find((file) => file.path === openFile)?.kind === "image" ? (
            <img className="artifact-image" src={api.judgeRunRawUrl(run, judgeRunId, openFile)} alt={openFile} />
          ) : (
            <FileContent key={openFile} load={() => api.judgeRunText(run, judgeRunId, openFile)} title={openFile} />
          )}
        </div>
      </div>
    </Section>
  );
}

/** One process stream under its label, or "empty". */
function Log({ label, text }: { label: string; text: string | null | undefined }) {
  return (
    <div>
      <div className="box-label">{label}</div>
      {text ? <Code>{text}</Code> : <span className="muted">empty</span>}
    </div>
  );
}

function VerificationCard({
  run,
  judgeRunId,
  verification,
}: {
  run: string;
  judgeRunId: string;
  verification: VerificationView;
}) {
  const api = useApi();
  const result = verification.receipt?.result ?? null;
  const images = verification.artifacts.filter((artifact) => artifact.kind === "image");
  const others = verification.artifacts.filter((artifact) => artifact.kind !== "image");
  return (
    <article className="verification" data-verification={verification.id}>
      <header className="criterion-header">
        <span className="criterion-id">Verification {verification.id}</span>
        {result ? (
          <StateBadge
            state={
              result.state === "completed" && result.exitCode === 0
                ? "completed"
                : result.state === "timed_out"
                  ? "timed_out"
                  : "failed"
            }
            label={result.state === "completed" ? `exit ${String(result.exitCode)}` : describeState(result.state)}
          />
        ) : null}
        <span className="spacer" />
        {verification.receipt ? (
          <span className="muted small">
            {verification.receipt.request.revision} workspace · {formatDuration(verification.receipt.elapsedMs)} · image{" "}
            <span className="mono">{verification.receipt.imageId.slice(0, 19)}</span>
          </span>
        ) : null}
      </header>
      {result ? (
        <table className="table commands">
          <thead>
            <tr>
              <th>Command</th>
              <th className="number">Exit</th>
              <th className="number">Time</th>
            </tr>
          </thead>
          <tbody>
            {result.commands.map((command, index) => (
              <tr key={index}>
                <td className="mono">{command.argv.join(" ")}</td>
                <td className={`number ${command.exitCode === 0 ? "tone-text-good" : "tone-text-bad"}`}>
                  {command.exitCode === null ? "killed" : command.exitCode}
                </td>
                <td className="number">{formatDuration(command.elapsedMs)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <div className="muted small">The receipt does not match the receipt format; it is shown raw below.</div>
      )}
      {images.length > 0 ? (
        <div className="artifacts">
          {images.map((image) => (
            <figure key={image.path} className="artifact">
              <img
                className="artifact-image"
                src={api.judgeRunRawUrl(run, judgeRunId, image.path)}
                alt={image.path}
                data-artifact={image.path}
              />
              <figcaption className="mono small">{image.path.split("/artifacts/").pop()}</figcaption>
            </figure>
          ))}
        </div>
      ) : null}
      {others.length > 0 ? (
        <KeyValues
          items={others.map((artifact) => [
            <span className="mono">{artifact.path.split("/artifacts/").pop()}</span>,
            formatBytes(artifact.bytes),
          ])}
        />
      ) : null}
      {result && (result.missingArtifacts.length > 0 || result.refusedArtifacts.length > 0) ? (
        <div className="small tone-text-bad">
          {result.missingArtifacts.length > 0 ? `missing artifacts: ${result.missingArtifacts.join(", ")}. ` : ""}
          {result.refusedArtifacts.map((artifact) => `${artifact.path}: ${artifact.reason}`).join("; ")}
        </div>
      ) : null}
      <div className="two-columns">
        <Log label={`stdout${result?.logsTruncated ? " (truncated)" : ""}`} text={verification.stdout} />
        <Log label="stderr" text={verification.stderr} />
      </div>
      <details>
        <summary className="muted small">receipt.json</summary>
        <Json value={verification.raw} />
      </details>
    </article>
  );
}
