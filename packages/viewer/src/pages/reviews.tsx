// People's reviews of a judgment on its judge-run page: the history of every review of the judged eval run (who, when,
// the score, why, whether a later review replaced it, whether this judge now agrees), reviews that fail their check,
// and — in a served viewer not started --read-only — the form that records one through the same call as
// `openeval review`.
import { useState, type FormEvent } from "react";
import type { JudgeRunDetail, ReviewRequest, ReviewStanding } from "openeval/viewer-api";
import { Empty, Section } from "../components/common.tsx";
import { formatCredit, formatDate } from "../format.ts";
import { useApi } from "../hooks.tsx";

const SCORES: { label: string; value: ReviewRequest["score"] }[] = [
  { label: "1 (pass)", value: 1 },
  { label: "0.5 (half credit)", value: 0.5 },
  { label: "0 (fail)", value: 0 },
  { label: "unresolved", value: null },
];

export function ReviewsSection({
  run,
  detail,
  onReviewed,
}: {
  run: string;
  detail: JudgeRunDetail;
  onReviewed: () => void;
}) {
  const api = useApi();
  const reviewable = detail.judgeRun.state === "completed" && detail.criteria.length > 0;
  return (
    <Section title="Reviews" id="reviews">
      {detail.reviewProblems.map((problem) => (
        <div className="error-box" key={problem} data-testid="review-problem">
          {problem}
        </div>
      ))}
      {detail.reviews.length === 0 ? (
        <Empty>No one has reviewed this eval run's judgment.</Empty>
      ) : (
        <ol className="review-history" data-testid="review-history">
          {[...detail.reviews].reverse().map((standing) => (
            <ReviewLine key={standing.review.id} standing={standing} />
          ))}
        </ol>
      )}
      {api.canReview && reviewable ? (
        <ReviewForm run={run} detail={detail} onReviewed={onReviewed} />
      ) : api.mode === "server" && reviewable ? (
        <p className="muted small">This viewer is read-only: review with `openeval review`.</p>
      ) : null}
    </Section>
  );
}

function ReviewLine({ standing }: { standing: ReviewStanding }) {
  const { review } = standing;
  const who = review.reviewer.name ?? review.reviewer.email ?? "someone";
  return (
    <li data-review-id={review.id} data-superseded={standing.superseded}>
      <span className="mono">{review.criterion}</span> → <strong>{formatCredit(review.score)}</strong> by {who},{" "}
      {formatDate(review.at)}: {review.reason}{" "}
      <span className="muted small">(the judge had {formatCredit(review.supersedes.value)})</span>
      {standing.superseded ? <span className="badge tone-muted">replaced by a later review</span> : null}
      {standing.active?.judgeAgrees ? <span className="badge tone-good">judge now agrees</span> : null}
    </li>
  );
}

function ReviewForm({ run, detail, onReviewed }: { run: string; detail: JudgeRunDetail; onReviewed: () => void }) {
  const api = useApi();
  const [criterion, setCriterion] = useState(detail.criteria[0]!.id);
  const [score, setScore] = useState("1");
  const [reason, setReason] = useState("");
  const [by, setBy] = useState("");
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setState({ busy: true, error: null });
    try {
      await api.review(run, {
        evalRunId: detail.judgeRun.evalRunId,
        criterion,
        score: SCORES.find((entry) => String(entry.value) === score)!.value,
        reason,
        ...(by.trim() ? { by: by.trim() } : {}),
      });
      setReason("");
      setState({ busy: false, error: null });
      onReviewed();
    } catch (error) {
      setState({ busy: false, error: (error as Error).message });
    }
  };
  return (
    <form className="review-form" aria-label="review a criterion" onSubmit={submit}>
      <label>
        Criterion
        <select value={criterion} onChange={(event) => setCriterion(event.target.value)} name="criterion">
          {detail.criteria.map((entry) => (
            <option key={entry.id} value={entry.id}>
              {entry.id}
            </option>
          ))}
        </select>
      </label>
      <label>
        Score
        <select value={score} onChange={(event) => setScore(event.target.value)} name="score">
          {SCORES.map((entry) => (
            <option key={entry.label} value={String(entry.value)}>
              {entry.label}
            </option>
          ))}
        </select>
      </label>
      <label className="review-reason">
        Why the judge's score is wrong
        <textarea value={reason} onChange={(event) => setReason(event.target.value)} name="reason" rows={2} />
      </label>
      <label>
        Your name (default: git config)
        <input value={by} onChange={(event) => setBy(event.target.value)} name="by" />
      </label>
      <button className="button" type="submit" disabled={state.busy}>
        Record review
      </button>
      {state.error ? (
        <div className="error-box" data-testid="review-error">
          {state.error}
        </div>
      ) : null}
    </form>
  );
}
