// The candidate's change: one unified diff per file, initial → final snapshot.
import { useEffect } from "react";
import type { FileDiff } from "openeval/viewer-api";
import { Empty } from "../components/common.tsx";
import { scrollToFocus } from "./focus.ts";

export function DiffView({ diff, focus }: { diff: FileDiff[]; focus: string | null }) {
  useEffect(() => {
    if (focus) scrollToFocus(`diff:${focus}`);
  }, [focus]);
  if (diff.length === 0) return <Empty>The workspace did not change.</Empty>;
  return (
    <div className="diff" data-testid="diff">
      {diff.map((file) => (
        <section key={file.path} className="diff-file" data-id={`diff:${file.path}`}>
          <header className="diff-header">
            <span className="mono strong">{file.path}</span>
            <span
              className={`badge tone-${file.status === "added" ? "good" : file.status === "deleted" ? "bad" : "busy"}`}
            >
              {file.status}
            </span>
            <span className="spacer" />
            <span className="tone-text-good">+{file.additions}</span>{" "}
            <span className="tone-text-bad">−{file.deletions}</span>
          </header>
          <pre className="code diff-body">
            {file.patch.split("\n").map((line, index) => (
              <div key={index} className={lineClass(line)}>
                {line || " "}
              </div>
            ))}
          </pre>
        </section>
      ))}
    </div>
  );
}

function lineClass(line: string): string {
  if (line.startsWith("+++") || line.startsWith("---")) return "diff-meta";
  if (line.startsWith("@@")) return "diff-hunk";
  if (line.startsWith("+")) return "diff-add";
  if (line.startsWith("-")) return "diff-del";
  return "";
}
