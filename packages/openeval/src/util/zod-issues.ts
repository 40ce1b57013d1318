// Turns zod issues into sentences a user can act on: which key, what is wrong with it.
import type { z } from "zod";

type Issue = z.core.$ZodIssue;

export function describeZodIssues(error: z.ZodError): string[] {
  return error.issues.flatMap((issue) => describeIssue(issue));
}

function describeIssue(issue: Issue): string[] {
  // A value that is one form or another (a number, or an object of settings): the form it was meant as says what is wrong.
  const at = issue.path.length === 0 ? "" : `${formatPath(issue.path)}: `;
  if (issue.code === "invalid_union" && issue.errors.length > 0) {
    const meant = meantBranch(issue.errors);
    if (meant) return meant.flatMap((inner) => describeIssue({ ...inner, path: [...issue.path, ...inner.path] }));
    const types = issue.errors.flatMap((issues) => (issues[0]?.code === "invalid_type" ? [issues[0]] : []));
    const received = /received (\S+)$/.exec(types[0]?.message ?? "")?.[1];
    if (types.length === issue.errors.length && received)
      return [`${at}Invalid input: expected ${types.map((type) => type.expected).join(" or ")}, received ${received}`];
  }
  if (issue.code === "unrecognized_keys") {
    const keys = issue.keys.map((key) => `"${key}"`).join(", ");
    return [
      `${at}unknown key${issue.keys.length === 1 ? "" : "s"} ${keys}; remove or correct ${issue.keys.length === 1 ? "it" : "them"}`,
    ];
  }
  return [`${at}${issue.message}`];
}

/** The one branch of a union whose type the value has (its issues are inside it); null when none or several are. */
function meantBranch(branches: readonly (readonly Issue[])[]): readonly Issue[] | null {
  const matching = branches.filter(
    (issues) => !issues.every((issue) => issue.code === "invalid_type" && issue.path.length === 0),
  );
  return matching.length === 1 ? matching[0]! : null;
}

function formatPath(path: PropertyKey[]): string {
  return path
    .map((part, index) => (typeof part === "number" ? `[${part}]` : `${index === 0 ? "" : "."}${String(part)}`))
    .join("");
}
