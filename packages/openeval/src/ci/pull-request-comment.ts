// One comment per pull request holding openeval's summary: found again by a hidden marker and updated in place on
// every push, so that a pull request never collects a comment per push. It speaks GitHub's issue comments API
// (a pull request is an issue there): list every page, then PATCH the marked comment or POST a new one.
import { readFile } from "node:fs/promises";
import { describeZodIssues } from "../util/zod-issues.ts";
import { PullRequestCommentError } from "./errors.ts";
import { createGitHubClient, type GitHubClient } from "./github-api.ts";
import {
  GitHubEnvironmentSchema,
  IssueCommentPageSchema,
  IssueCommentSchema,
  PullRequestEventSchema,
  type GitHubEnvironment,
  type IssueComment,
} from "./schema.ts";

/** GitHub's largest page of comments: the fewest requests to read a long thread. */
const PAGE_SIZE = 100;
/** GitHub refuses a comment longer than this many characters. */
const MAX_BODY = 65_536;

export interface PostCommentOptions {
  /** The GITHUB_* variables (process.env in the CLI). */
  environment: Record<string, string | undefined>;
  /** The comment's Markdown. */
  body: string;
  /** The pull request's number; default: the one GITHUB_EVENT_PATH's event names. */
  pullRequest?: number;
  /** Tells this comment from another openeval comment on the same pull request (another benchmark's); default none. */
  name?: string;
  fetch?: typeof fetch;
}

export interface PostedComment {
  action: "created" | "updated";
  pullRequest: number;
  id: number;
  url: string | null;
}

/**
 * Posts the body as the pull request's openeval comment, or updates the comment an earlier push posted.
 * @example
 * const posted = await postPullRequestComment({ environment: process.env, body: markdown });
 * console.log(`${posted.action} ${posted.url}`);
 */
export async function postPullRequestComment(options: PostCommentOptions): Promise<PostedComment> {
  const environment = readGitHubEnvironment(options.environment);
  const pullRequest = options.pullRequest ?? (await readPullRequestNumber(environment));
  const github = createGitHubClient({
    apiUrl: environment.GITHUB_API_URL,
    token: environment.GITHUB_TOKEN,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const marker = commentMarker(options.name);
  const body = markedBody(options.body, marker);
  const repository = `/repos/${environment.GITHUB_REPOSITORY}`;
  const existing = await findMarkedComment(github, `${repository}/issues/${pullRequest}/comments`, marker);
  const comment = existing
    ? await github.request("PATCH", `${repository}/issues/comments/${existing.id}`, IssueCommentSchema, { body })
    : await github.request("POST", `${repository}/issues/${pullRequest}/comments`, IssueCommentSchema, { body });
  return { action: existing ? "updated" : "created", pullRequest, id: comment.id, url: comment.html_url ?? null };
}

/** The hidden line that marks openeval's comment: `<!-- openeval -->`, or `<!-- openeval:name -->` for a named one. */
export function commentMarker(name?: string): string {
  return name ? `<!-- openeval:${name.replace(/-->/g, "")} -->` : "<!-- openeval -->";
}

/** The GITHUB_* variables, validated; every missing or wrong one is named with what to set it to. */
export function readGitHubEnvironment(environment: Record<string, string | undefined>): GitHubEnvironment {
  const given = Object.fromEntries(
    Object.keys(GitHubEnvironmentSchema.shape).flatMap((key) => (environment[key] ? [[key, environment[key]]] : [])),
  );
  const parsed = GitHubEnvironmentSchema.safeParse(given);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => describeVariable(String(issue.path[0]), given));
  throw new PullRequestCommentError("environmentInvalid", { problems: [...new Set(problems)] });
}

function describeVariable(name: string, given: Record<string, string>): string {
  const set = given[name] !== undefined;
  switch (name) {
    case "GITHUB_REPOSITORY":
      return set
        ? `GITHUB_REPOSITORY is "${given[name]}", not owner/name: set it to the repository, e.g. octo-org/app`
        : "GITHUB_REPOSITORY is not set: set it to the repository as owner/name (GitHub Actions sets it)";
    case "GITHUB_TOKEN":
      return "GITHUB_TOKEN is not set: set it to a token that may write the pull request's comments (in a workflow: `GITHUB_TOKEN: ${{ github.token }}` with `permissions: pull-requests: write`)";
    case "GITHUB_API_URL":
      return `GITHUB_API_URL is "${given[name]}", not an http(s) URL: set it to your GitHub's API, or unset it for https://api.github.com`;
    default:
      return `${name} is not valid`;
  }
}

async function readPullRequestNumber(environment: GitHubEnvironment): Promise<number> {
  const path = environment.GITHUB_EVENT_PATH;
  if (path === undefined)
    throw new PullRequestCommentError("pullRequestUnknown", { why: "GITHUB_EVENT_PATH is not set" });
  let event: unknown;
  try {
    event = JSON.parse(await readFile(path, "utf8"));
  } catch (error) {
    throw new PullRequestCommentError(
      "pullRequestUnknown",
      { why: `GITHUB_EVENT_PATH ${path} cannot be read as JSON (${(error as Error).message})` },
      { cause: error },
    );
  }
  const parsed = PullRequestEventSchema.safeParse(event);
  if (!parsed.success)
    throw new PullRequestCommentError("pullRequestUnknown", {
      why: `the event in ${path} is not a pull request's (${describeZodIssues(parsed.error).join("; ")})`,
    });
  const { pull_request, issue } = parsed.data;
  const number = pull_request?.number ?? (issue?.pull_request === undefined ? undefined : issue.number);
  if (number === undefined)
    throw new PullRequestCommentError("pullRequestUnknown", {
      why: `the event in ${path} names no pull request (no pull_request.number)`,
    });
  return number;
}

/** The marker first (hidden, so the comment reads as the summary), and the body cut to what GitHub accepts. */
function markedBody(body: string, marker: string): string {
  const text = `${marker}\n${body.replaceAll(marker, "")}`;
  if (text.length <= MAX_BODY) return text;
  const note = "\n\n…cut to fit a GitHub comment; the job's artifact holds the whole run.\n";
  return text.slice(0, MAX_BODY - note.length) + note;
}

/** The first comment carrying the marker, reading the pull request's comments page by page until found. */
async function findMarkedComment(github: GitHubClient, path: string, marker: string): Promise<IssueComment | null> {
  for (let page = 1; ; page += 1) {
    const comments = await github.request("GET", `${path}?per_page=${PAGE_SIZE}&page=${page}`, IssueCommentPageSchema);
    const marked = comments.find((comment) => comment.body?.includes(marker));
    if (marked) return marked;
    if (comments.length < PAGE_SIZE) return null;
  }
}
