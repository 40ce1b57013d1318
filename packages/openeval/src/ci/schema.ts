// The shapes the pull-request comment reads from outside: the GitHub Actions environment, the event file the
// runner writes (GITHUB_EVENT_PATH), and the issue comments API's answers.
import * as z from "zod";

/** GitHub's API outside GitHub Enterprise Server (GitHub Actions sets GITHUB_API_URL to it there). */
export const GITHUB_API_URL = "https://api.github.com";

/** The variables `openeval ci comment` reads; an empty value counts as unset, as a shell's `VAR=` means. */
export const GitHubEnvironmentSchema = z.object({
  GITHUB_REPOSITORY: z.string().regex(/^[\w.-]+\/[\w.-]+$/, "expected owner/name"),
  GITHUB_TOKEN: z.string().min(1),
  GITHUB_API_URL: z.url({ protocol: /^https?$/ }).default(GITHUB_API_URL),
  GITHUB_EVENT_PATH: z.string().min(1).optional(),
});
export type GitHubEnvironment = z.infer<typeof GitHubEnvironmentSchema>;

const NumberSchema = z.number().int().positive();

/**
 * The events that name a pull request: pull_request and pull_request_target (`pull_request.number`), and a
 * comment on a pull request (`issue.number` of an issue that is a pull request).
 */
export const PullRequestEventSchema = z.object({
  pull_request: z.object({ number: NumberSchema }).optional(),
  issue: z.object({ number: NumberSchema, pull_request: z.unknown().optional() }).optional(),
});

/** An issue comment as GET/POST/PATCH …/comments answer it: only what finding and reporting it needs. */
export const IssueCommentSchema = z.object({
  id: z.number().int().positive(),
  body: z.string().nullish(),
  html_url: z.string().optional(),
});
export type IssueComment = z.infer<typeof IssueCommentSchema>;

export const IssueCommentPageSchema = z.array(IssueCommentSchema);

/** GitHub's error answer (`{ message, documentation_url }`); anything else is shown as its status alone. */
export const GitHubErrorSchema = z.object({ message: z.string() });
