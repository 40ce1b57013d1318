// What the integrity check found in an eval run, on its page: each finding (kind, severity, subject, what the candidate
// did) with its citation as a link to the transcript step, the diff entry or the refused connection it comes from; and
// the connections the candidate's egress proxy refused. `refused` in the URL marks and scrolls to one of them.
import { useEffect } from "react";
import type { EvalRunDetail, IntegrityFindingView } from "openeval/viewer-api";
import { Section } from "../components/common.tsx";
import { describeIntegrityFlag } from "../components/integrity-flag.tsx";
import { shortId } from "../format.ts";
import { href, withQuery, type Location } from "../route.ts";
import { scrollToFocus } from "./focus.ts";

export function IntegrityPanel({ run, detail, location }: { run: string; detail: EvalRunDetail; location: Location }) {
  const integrity = detail.integrity;
  if (!integrity?.flag) return null;
  return (
    <Section
      title="Integrity findings"
      id="integrity-findings"
      actions={
        <span className="muted small">
          {describeIntegrityFlag(integrity.flag)} · found when{" "}
          <a href={href({ page: "judge-run", run, judgeRun: integrity.judgeRunId })}>
            judgment {shortId(integrity.judgeRunId)}
          </a>{" "}
          graded it · scores are unchanged
        </span>
      }
    >
      <ul className="integrity-findings" data-testid="integrity-findings">
        {integrity.findings.map((finding, index) => (
          <li
            key={index}
            className={`integrity-finding severity-${finding.severity}`}
            data-testid="integrity-finding"
            data-kind={finding.kind}
            data-severity={finding.severity}
          >
            <div className="integrity-finding-head">
              <span className={`badge tone-${finding.severity === "fail" ? "bad" : "warn"}`}>{finding.severity}</span>
              <span className="mono strong">{finding.kind}</span>
              <span className="mono integrity-subject">{finding.subject}</span>
            </div>
            <div className="prose small">{finding.detail}</div>
            <FindingCitation finding={finding} location={location} />
          </li>
        ))}
      </ul>
    </Section>
  );
}

/** The citation as a link to what it cites on this page; unlinked when the recording shown does not hold it. */
function FindingCitation({ finding, location }: { finding: IntegrityFindingView; location: Location }) {
  const { citation, target } = finding;
  if (!target) {
    const named =
      citation.kind === "tool" ? citation.id : citation.kind === "file" ? citation.path : `#${citation.index}`;
    return (
      <span className="citation unlinked" title="The recording shown does not hold what this cites">
        <span className="citation-kind">{citation.kind}</span>
        <span className="mono citation-target">{named}</span>
        <span className="citation-quote">not in the recording shown</span>
      </span>
    );
  }
  const clear = { focus: null, session: null, path: null, refused: null };
  const [link, label, note] =
    target.kind === "tool"
      ? [withQuery(location, { ...clear, tab: "transcript", focus: target.focus }), target.focus, `${target.tool} call`]
      : target.kind === "file"
        ? [withQuery(location, { ...clear, tab: "diff", path: target.path }), target.path, `${target.status} · diff`]
        : [
            withQuery(location, { ...clear, refused: target.index }),
            target.host ?? "a request that was not a CONNECT",
            `refused connection #${target.index + 1}`,
          ];
  return (
    <a className="citation" href={link} data-citation={target.kind}>
      <span className="citation-kind">{target.kind}</span>
      <span className="mono citation-target">{label}</span>
      <span className="citation-quote">{note}</span>
    </a>
  );
}

/** The connections the candidate's egress proxy refused, in order (recorded for candidates in containers). */
export function RefusedConnections({ detail, location }: { detail: EvalRunDetail; location: Location }) {
  const refused = detail.evalRun.egressRefused ?? [];
  const marked = location.query.get("refused");
  useEffect(() => {
    if (marked !== null) scrollToFocus(`egress:${marked}`);
  }, [marked]);
  if (refused.length === 0) return null;
  return (
    <Section
      title="Refused connections"
      id="refused-connections"
      actions={
        <span className="muted small">
          the egress proxy lets the candidate reach its provider and candidate.network.allow only
        </span>
      }
    >
      <ol className="refused-connections" data-testid="refused-connections">
        {refused.map((host, index) => (
          <li key={index} data-id={`egress:${index}`} className={marked === String(index) ? "focused" : ""}>
            {host === null ? (
              <span className="muted">a request that was not a CONNECT</span>
            ) : (
              <span className="mono">{host}</span>
            )}
          </li>
        ))}
      </ol>
    </Section>
  );
}
