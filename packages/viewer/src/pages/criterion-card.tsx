// A criterion's score as the judge-run page shows it: credit, source, the reference-fix cap, a person's review that
// decides it (with the judge's own score beside it), the reason, citations that open what they cite in the eval run,
// and any measurements.
import type { CitationView, CriterionView, ScoreReview } from "openeval/viewer-api";
import { Credit, Json } from "../components/common.tsx";
import { formatCredit, formatDate } from "../format.ts";
import { href } from "../route.ts";

export function CriterionCard({
  run,
  evalRunId,
  criterion,
}: {
  run: string;
  evalRunId: string;
  criterion: CriterionView;
}) {
  return (
    <article className="criterion" data-criterion={criterion.id}>
      <header className="criterion-header">
        <span className="criterion-id">{criterion.id}</span>
        <span className="badge tone-muted">{criterion.source}</span>
        <span className="spacer" />
        <Credit value={criterion.value} />
      </header>
      {criterion.ceiling ? (
        <p className="muted small" data-ceiling>
          {criterion.ceiling.judged !== null && criterion.ceiling.judged > criterion.ceiling.value
            ? `Capped at the reference fix's score ${criterion.ceiling.value.toFixed(2)}: the judge scored ${criterion.ceiling.judged.toFixed(2)}.`
            : `Ceiling: the reference fix's score ${criterion.ceiling.value.toFixed(2)}; the judge scored ${criterion.ceiling.judged === null ? "unresolved" : criterion.ceiling.judged.toFixed(2)}, under it.`}
        </p>
      ) : null}
      {criterion.review ? <ReviewNote review={criterion.review} /> : null}
      {criterion.reason ? (
        <p className="reason">{criterion.reason}</p>
      ) : criterion.source === "judge.md" ? (
        <p className="muted small">No reason given.</p>
      ) : null}
      {criterion.citations.length > 0 ? (
        <ul className="citations">
          {criterion.citations.map((citation, index) => (
            <li key={index}>
              <CitationLink run={run} evalRunId={evalRunId} citation={citation} />
            </li>
          ))}
        </ul>
      ) : null}
      {criterion.measurements !== null ? (
        <details>
          <summary className="muted small">measurements</summary>
          <Json value={criterion.measurements} />
        </details>
      ) : null}
    </article>
  );
}

export function citationHref(run: string, evalRunId: string, citation: CitationView): string | null {
  const page = { page: "eval-run" as const, run, evalRun: evalRunId };
  switch (citation.kind) {
    case "response":
      return href(page, { tab: "transcript", focus: "response" });
    case "message":
    case "tool":
      return citation.id ? href(page, { tab: "transcript", focus: citation.id }) : null;
    case "event":
      return citation.id ? href(page, { tab: "events", focus: citation.id }) : null;
    case "metric":
      return citation.id ? href(page, { tab: "metrics", focus: citation.id }) : null;
    case "file":
      return citation.path
        ? href(page, {
            tab: "files",
            path: citation.path,
            revision: citation.revision === "initial" ? "initial" : null,
            quote: citation.quote,
          })
        : null;
    case "unknown":
      return null;
  }
}

function CitationLink({ run, evalRunId, citation }: { run: string; evalRunId: string; citation: CitationView }) {
  const target = citationHref(run, evalRunId, citation);
  const label =
    citation.kind === "file" ? citation.path : citation.kind === "response" ? "final response" : citation.id;
  const body = (
    <>
      <span className="citation-kind">{citation.kind}</span>
      {label ? <span className="mono citation-target">{label}</span> : null}
      {citation.quote ? <q className="citation-quote">{citation.quote}</q> : null}
    </>
  );
  if (!target)
    return (
      <span className="citation unlinked" title={JSON.stringify(citation.raw)}>
        {citation.kind === "unknown" ? <span className="mono small">{JSON.stringify(citation.raw)}</span> : body}
      </span>
    );
  return (
    <a className="citation" href={target} data-citation={citation.kind}>
      {body}
    </a>
  );
}

/** A review decides the score shown; the judge's own score stays beside it. */
function ReviewNote({ review }: { review: ScoreReview }) {
  const who = review.reviewer.name ?? review.reviewer.email ?? "someone";
  return (
    <p className="notice small" data-review>
      Reviewed by {who} on {formatDate(review.at)}: {review.reason} The judge scored{" "}
      <span data-judged>{formatCredit(review.judged)}</span>.
      {review.judgeAgrees ? (
        <span className="badge tone-good" data-judge-agrees>
          judge now agrees
        </span>
      ) : null}
    </p>
  );
}
