import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startGitHubCommentsStub, type GitHubCommentsStub } from "../../../../test/helpers/github-comments-stub.ts";
import { postPullRequestComment, PullRequestCommentError } from "./index.ts";

const TOKEN = "ghs_unitTestTokenValue0123456789";
const REPOSITORY = "octo-org/app";

let stub: GitHubCommentsStub;
let folder: string;

beforeEach(async () => {
  // More comments than one page holds, so that the marked comment is found on the second page.
  stub = startGitHubCommentsStub({
    repository: REPOSITORY,
    pullRequest: 7,
    token: TOKEN,
    earlier: Array.from({ length: 130 }, (_, index) => `review note ${index}`),
  });
  folder = await mkdtemp(join(tmpdir(), "openeval-ci-"));
});

afterEach(async () => {
  await stub.stop();
  await rm(folder, { recursive: true, force: true });
});

function environment(extra: Record<string, string | undefined> = {}) {
  return { GITHUB_REPOSITORY: REPOSITORY, GITHUB_TOKEN: TOKEN, GITHUB_API_URL: stub.url, ...extra };
}

async function failure(promise: Promise<unknown>): Promise<PullRequestCommentError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(PullRequestCommentError);
  return error as PullRequestCommentError;
}

const marked = () => stub.comments.filter((comment) => comment.body.startsWith("<!-- openeval -->\n"));

describe("postPullRequestComment", () => {
  it("posts one marked comment, then updates that one on the next push, reading every page to find it", async () => {
    const first = await postPullRequestComment({ environment: environment(), pullRequest: 7, body: "## first\n" });
    expect(first).toMatchObject({ action: "created", pullRequest: 7 });
    const second = await postPullRequestComment({ environment: environment(), pullRequest: 7, body: "## second\n" });
    expect(second).toMatchObject({ action: "updated", id: first.id, url: first.url });
    expect(marked().map((comment) => comment.body)).toEqual(["<!-- openeval -->\n## second\n"]);
    expect(stub.comments).toHaveLength(131);
    const calls = stub.requests.map((request) => `${request.method} ${request.path}`);
    expect(calls).toEqual([
      `GET /repos/${REPOSITORY}/issues/7/comments?per_page=100&page=1`,
      `GET /repos/${REPOSITORY}/issues/7/comments?per_page=100&page=2`,
      `POST /repos/${REPOSITORY}/issues/7/comments`,
      `GET /repos/${REPOSITORY}/issues/7/comments?per_page=100&page=1`,
      `GET /repos/${REPOSITORY}/issues/7/comments?per_page=100&page=2`,
      `PATCH /repos/${REPOSITORY}/issues/comments/${first.id}`,
    ]);
  });

  it("keeps one comment per name apart from the unnamed one", async () => {
    await postPullRequestComment({ environment: environment(), pullRequest: 7, body: "a" });
    await postPullRequestComment({ environment: environment(), pullRequest: 7, body: "b", name: "smoke" });
    await postPullRequestComment({ environment: environment(), pullRequest: 7, body: "c", name: "smoke" });
    expect(stub.comments.slice(130).map((comment) => comment.body)).toEqual([
      "<!-- openeval -->\na",
      "<!-- openeval:smoke -->\nc",
    ]);
  });

  it("takes the pull request from the event file: a pull_request event or a comment on a pull request", async () => {
    const event = join(folder, "event.json");
    await writeFile(event, JSON.stringify({ action: "synchronize", pull_request: { number: 7, title: "x" } }));
    const posted = await postPullRequestComment({ environment: environment({ GITHUB_EVENT_PATH: event }), body: "x" });
    expect(posted.pullRequest).toBe(7);
    await writeFile(event, JSON.stringify({ issue: { number: 7, pull_request: { url: "…" } } }));
    expect(
      (await postPullRequestComment({ environment: environment({ GITHUB_EVENT_PATH: event }), body: "y" })).action,
    ).toBe("updated");
  });

  it("refuses an event that names no pull request, or none at all, saying to pass --pr", async () => {
    const event = join(folder, "push.json");
    await writeFile(event, JSON.stringify({ ref: "refs/heads/main", issue: { number: 3 } }));
    const push = await failure(
      postPullRequestComment({ environment: environment({ GITHUB_EVENT_PATH: event }), body: "x" }),
    );
    expect(push.code).toBe("OE_CI_PULL_REQUEST");
    expect(push.message).toBe(
      `No pull request to comment on: the event in ${event} names no pull request (no pull_request.number). Run it on a pull_request event, or pass --pr <number>`,
    );
    const none = await failure(postPullRequestComment({ environment: environment(), body: "x" }));
    expect(none.message).toContain("GITHUB_EVENT_PATH is not set");
    await writeFile(event, "{ not json");
    const broken = await failure(
      postPullRequestComment({ environment: environment({ GITHUB_EVENT_PATH: event }), body: "x" }),
    );
    expect(broken.message).toContain(`GITHUB_EVENT_PATH ${event} cannot be read as JSON`);
    expect(stub.requests).toEqual([]);
  });

  it("names every missing or wrong variable with what to set, and never the token", async () => {
    const missing = await failure(postPullRequestComment({ environment: {}, pullRequest: 7, body: "x" }));
    expect(missing.code).toBe("OE_CI_ENVIRONMENT");
    expect(missing.message).toContain(
      "GITHUB_REPOSITORY is not set: set it to the repository as owner/name (GitHub Actions sets it)",
    );
    expect(missing.message).toContain("GITHUB_TOKEN is not set: set it to a token that may write");
    const wrong = await failure(
      postPullRequestComment({
        environment: environment({ GITHUB_REPOSITORY: "app", GITHUB_API_URL: "ftp://example" }),
        pullRequest: 7,
        body: "x",
      }),
    );
    expect(wrong.message).toContain('GITHUB_REPOSITORY is "app", not owner/name');
    expect(wrong.message).toContain('GITHUB_API_URL is "ftp://example", not an http(s) URL');
    expect(wrong.message).not.toContain(TOKEN);
    expect(stub.requests).toEqual([]);
  });

  it("defaults GITHUB_API_URL to GitHub's, an empty value counting as unset", async () => {
    const calls: string[] = [];
    const fetchStub = (async (url: string) => {
      calls.push(url);
      return Response.json([]);
    }) as unknown as typeof fetch;
    await postPullRequestComment({
      environment: environment({ GITHUB_API_URL: "" }),
      pullRequest: 7,
      body: "x",
      fetch: fetchStub,
    }).catch(() => undefined);
    expect(calls[0]).toBe(`https://api.github.com/repos/${REPOSITORY}/issues/7/comments?per_page=100&page=1`);
  });

  it("says what to grant when GitHub refuses, with the token masked out of what GitHub echoed", async () => {
    stub.refuse({ status: 403, message: `Resource not accessible by integration (token ${TOKEN})` });
    const refused = await failure(postPullRequestComment({ environment: environment(), pullRequest: 7, body: "x" }));
    expect(refused.code).toBe("OE_CI_GITHUB_API");
    expect(refused.message).toBe(
      `GitHub answered GET ${stub.url}/repos/${REPOSITORY}/issues/7/comments?per_page=100&page=1 with 403: Resource not accessible by integration (token ***); ` +
        "the token may not write comments here: grant the job `permissions: pull-requests: write` (a fork's pull request gets a read-only token)",
    );
    stub.refuse(null);
    const badToken = await failure(
      postPullRequestComment({ environment: environment({ GITHUB_TOKEN: "wrong" }), pullRequest: 7, body: "x" }),
    );
    expect(badToken.message).toContain("with 401: Bad credentials; GITHUB_TOKEN is not a valid token");
  });

  it("refuses an answer that is not a list of comments, and an API it cannot reach", async () => {
    const notComments = (async () => Response.json({ items: [] })) as unknown as typeof fetch;
    const odd = await failure(
      postPullRequestComment({ environment: environment(), pullRequest: 7, body: "x", fetch: notComments }),
    );
    expect(odd.message).toMatch(
      /^GitHub's answer to GET .* is not what the issue comments API answers \(.*expected array/,
    );
    await stub.stop();
    const gone = await failure(postPullRequestComment({ environment: environment(), pullRequest: 7, body: "x" }));
    expect(gone.message).toMatch(
      /failed: .*; check GITHUB_API_URL \(default https:\/\/api\.github\.com\) and the network$/,
    );
  });

  it("cuts a body GitHub would refuse as too long, saying where the rest is", async () => {
    await postPullRequestComment({ environment: environment(), pullRequest: 7, body: "x".repeat(70_000) });
    const body = marked()[0]!.body;
    expect(body.length).toBe(65_536);
    expect(body).toMatch(/cut to fit a GitHub comment; the job's artifact holds the whole run\.\n$/);
  });
});
