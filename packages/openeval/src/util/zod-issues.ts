// Turns zod issues into sentences a user can act on: which key, what is wrong with it.
import type { z } from "zod";

export function describeZodIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const at = issue.path.length === 0 ? "" : `${formatPath(issue.path)}: `;
    if (issue.code === "unrecognized_keys") {
      const keys = issue.keys.map((key) => `"${key}"`).join(", ");
      return `${at}unknown key${issue.keys.length === 1 ? "" : "s"} ${keys}; remove or correct ${issue.keys.length === 1 ? "it" : "them"}`;
    }
    return `${at}${issue.message}`;
  });
}

function formatPath(path: PropertyKey[]): string {
  return path
    .map((part, index) => (typeof part === "number" ? `[${part}]` : `${index === 0 ? "" : "."}${String(part)}`))
    .join("");
}
