// Changing results from the viewer's page: only a POST from its own page (Origin), with its token and a JSON body, is
// taken; a read-only viewer takes none. A review taken this way is recorded as `openeval review` records it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir } from "../../../../test/helpers/fixtures.ts";
import { serveViewer, type ViewerServer } from "./serve-viewer.ts";
import { writeViewerFixture, type ViewerFixture } from "./fixtures/viewer-run.ts";
import { ACTION_TOKEN_HEADER } from "./action-guard.ts";

let fixture: ViewerFixture;
let viewer: ViewerServer;
let readOnly: ViewerServer;
let token: string;

beforeAll(async () => {
  fixture = await writeViewerFixture(await makeTempDir(), { evals: 1, models: ["provider/alpha"], repetitions: 1 });
  viewer = await serveViewer({ benchmark: fixture.benchmarkDirectory, port: 0 });
  readOnly = await serveViewer({ benchmark: fixture.benchmarkDirectory, port: 0, readOnly: true });
  token = /"token":"([0-9a-f]{64})"/.exec(await (await fetch(viewer.url)).text())![1]!;
});
afterAll(async () => {
  await viewer.stop();
  await readOnly.stop();
});

const reviewPath = (server: ViewerServer) =>
  `${server.url}api/actions/runs/${encodeURIComponent(fixture.runId)}/reviews`;
const review = () => ({
  evalRunId: fixture.evalRuns[0]!.id,
  criterion: "tests_pass",
  score: 0,
  reason: "The test passes only because it was skipped",
  by: "Ada",
});

function post(server: ViewerServer, headers: Record<string, string>, body: unknown = review()) {
  return fetch(reviewPath(server), {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url.slice(0, -1), ...headers },
    body: JSON.stringify(body),
  });
}

describe("the viewer's actions", () => {
  it("embeds a per-process token in the served page, and none when read-only", async () => {
    expect(token).toHaveLength(64);
    const other = await serveViewer({ benchmark: fixture.benchmarkDirectory, port: 0 });
    expect(await (await fetch(other.url)).text()).not.toContain(token);
    await other.stop();
    expect(await (await fetch(readOnly.url)).text()).not.toContain('"token"');
  });

  it("refuses a request without the token, with another token, from another origin, as GET, or without a JSON body", async () => {
    const refused = async (response: Response) => [
      response.status,
      ((await response.json()) as { error: string }).error,
    ];
    expect(await refused(await post(viewer, {}))).toEqual([
      403,
      "Refused: the request lacks this viewer's token; reload the viewer's page and try again",
    ]);
    expect((await post(viewer, { [ACTION_TOKEN_HEADER]: "0".repeat(64) })).status).toBe(403);
    expect(await refused(await post(viewer, { [ACTION_TOKEN_HEADER]: token, origin: "http://evil.example" }))).toEqual([
      403,
      "Refused: the request does not come from this viewer's own page (its Origin is another site)",
    ]);
    const noOrigin = await fetch(reviewPath(viewer), {
      method: "POST",
      headers: { "content-type": "application/json", [ACTION_TOKEN_HEADER]: token },
      body: JSON.stringify(review()),
    });
    expect(noOrigin.status).toBe(403);
    expect(
      (await fetch(reviewPath(viewer), { headers: { [ACTION_TOKEN_HEADER]: token, origin: viewer.url.slice(0, -1) } }))
        .status,
    ).toBe(405);
    expect(await refused(await post(viewer, { [ACTION_TOKEN_HEADER]: token, "content-type": "text/plain" }))).toEqual([
      415,
      "A request that changes the results must send a JSON body (Content-Type: application/json)",
    ]);
    // None of these recorded anything.
    const detail = await (
      await fetch(`${viewer.url}api/runs/${encodeURIComponent(fixture.runId)}/judge-runs/${fixture.judgeRuns[0]!.id}`)
    ).json();
    expect(detail.reviews).toEqual([]);
  });

  it("a read-only viewer refuses every action, saying so", async () => {
    const response = await post(readOnly, { [ACTION_TOKEN_HEADER]: token });
    expect(response.status).toBe(403);
    expect(((await response.json()) as { error: string }).error).toContain("read-only");
  });

  it("records a review from its own page as openeval review does, and names what is wrong with a bad one", async () => {
    const matrix = async () =>
      (await (await fetch(`${viewer.url}api/runs/${encodeURIComponent(fixture.runId)}/matrix`)).json()) as {
        items: { cells: { score: { value: number } }[] }[];
      };
    const overview = async () =>
      (
        (await (await fetch(`${viewer.url}api/runs/${encodeURIComponent(fixture.runId)}`)).json()) as {
          version: string;
        }
      ).version;
    expect((await matrix()).items[0]!.cells[0]!.score.value).toBe(1);
    const before = await overview();
    const bad = await post(viewer, { [ACTION_TOKEN_HEADER]: token }, { ...review(), criterion: "nope" });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      code: "OE_REVIEW_CRITERION_UNKNOWN",
      error: expect.stringContaining('has no criterion "nope"'),
    });
    const invalid = await post(viewer, { [ACTION_TOKEN_HEADER]: token }, { ...review(), score: 2 });
    expect(invalid.status).toBe(400);
    expect(((await invalid.json()) as { error: string }).error).toMatch(/^Invalid review: score/);
    const recorded = await post(viewer, { [ACTION_TOKEN_HEADER]: token });
    expect(recorded.status).toBe(200);
    expect(await recorded.json()).toMatchObject({
      review: { criterion: "tests_pass", score: 0, reviewer: { name: "Ada" }, supersedes: { value: 1 } },
    });
    const detail = await (
      await fetch(`${viewer.url}api/runs/${encodeURIComponent(fixture.runId)}/judge-runs/${fixture.judgeRuns[0]!.id}`)
    ).json();
    expect(detail.criteria.find((criterion: { id: string }) => criterion.id === "tests_pass")).toMatchObject({
      value: 0,
      review: { judged: 1, reason: "The test passes only because it was skipped" },
    });
    // The matrix follows the review too (tests_pass 0, focused_fix 1), and the run's version moved for live pages.
    expect((await matrix()).items[0]!.cells[0]!.score.value).toBe(0.5);
    expect(await overview()).not.toBe(before);
  });
});
