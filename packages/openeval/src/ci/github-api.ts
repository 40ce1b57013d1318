// A small client of GitHub's REST API for the comment: one request with the token, its answer checked with zod, and
// every failure an error that says what to do. The token goes only into the Authorization header: it is masked out
// of anything an answer echoes back before that reaches a message.
import type * as z from "zod";
import { describeZodIssues } from "../util/zod-issues.ts";
import { PullRequestCommentError } from "./errors.ts";
import { GitHubErrorSchema } from "./schema.ts";

export interface GitHubClient {
  /** `path` starts with a slash and is relative to the API's URL; `body` is sent as JSON. */
  request<T>(method: "GET" | "POST" | "PATCH", path: string, schema: z.ZodType<T>, body?: unknown): Promise<T>;
}

export interface GitHubClientOptions {
  apiUrl: string;
  token: string;
  /** The fetch to call; tests pass none and point apiUrl at a stub on 127.0.0.1. */
  fetch?: typeof fetch;
}

/** What to check or grant for each refusal GitHub answers with. */
const HINTS: Record<number, string> = {
  401: "GITHUB_TOKEN is not a valid token: set it to the workflow's token (`${{ github.token }}`) or a personal access token",
  403: "the token may not write comments here: grant the job `permissions: pull-requests: write` (a fork's pull request gets a read-only token)",
  404: "check GITHUB_REPOSITORY and the pull request's number, and that the token can see the repository",
};

/**
 * @example
 * const github = createGitHubClient({ apiUrl: "https://api.github.com", token });
 * const comments = await github.request("GET", "/repos/o/r/issues/7/comments", IssueCommentPageSchema);
 */
export function createGitHubClient(options: GitHubClientOptions): GitHubClient {
  const call = options.fetch ?? fetch;
  const base = options.apiUrl.replace(/\/+$/, "");
  const mask = (text: string) => maskToken(text, options.token);
  return {
    async request(method, path, schema, body) {
      const request = `${method} ${base}${path}`;
      let response: Response;
      try {
        response = await call(`${base}${path}`, {
          method,
          headers: {
            accept: "application/vnd.github+json",
            authorization: `Bearer ${options.token}`,
            "x-github-api-version": "2022-11-28",
            "user-agent": "openeval",
            ...(body === undefined ? {} : { "content-type": "application/json" }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
      } catch (error) {
        throw new PullRequestCommentError("apiUnreachable", { request, reason: mask((error as Error).message) });
      }
      const text = await response.text();
      const json = parseJson(text);
      if (!response.ok) {
        const parsed = GitHubErrorSchema.safeParse(json);
        throw new PullRequestCommentError("apiRefused", {
          request,
          status: response.status,
          answer: mask(parsed.success ? parsed.data.message : text.slice(0, 200)),
          hint: HINTS[response.status] ?? "try again; if it persists, check GitHub's status",
        });
      }
      const parsed = schema.safeParse(json);
      if (!parsed.success)
        throw new PullRequestCommentError("apiUnexpected", {
          request,
          problems: describeZodIssues(parsed.error).slice(0, 3).map(mask),
        });
      return parsed.data;
    },
  };
}

/** `text` with every occurrence of the token replaced by `***`, as GitHub Actions masks a secret in its logs. */
export function maskToken(text: string, token: string): string {
  return token.length === 0 ? text : text.split(token).join("***");
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
