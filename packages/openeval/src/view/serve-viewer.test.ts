import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir } from "../../../../test/helpers/fixtures.ts";
import { serveViewer, type ViewerServer } from "./serve-viewer.ts";
import { writeViewerFixture, type ViewerFixture } from "./viewer-fixtures.ts";

let fixture: ViewerFixture;
let viewer: ViewerServer;

beforeAll(async () => {
  fixture = await writeViewerFixture(await makeTempDir(), { evals: 1, models: ["provider/alpha"], repetitions: 1 });
  viewer = await serveViewer({ benchmark: fixture.benchmarkDirectory, port: 0 });
});
afterAll(() => viewer.stop());

describe("openeval view's server", () => {
  it("serves the bundled app and the API on 127.0.0.1, opening the latest run", async () => {
    expect(viewer.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(viewer.defaultRunId).toBe(fixture.runId);
    const html = await (await fetch(viewer.url)).text();
    expect(html).toContain('<script src="app.js"></script>');
    const script = await fetch(`${viewer.url}app.js`);
    expect(script.headers.get("content-type")).toContain("text/javascript");
    expect((await script.text()).length).toBeGreaterThan(10_000);
    expect((await fetch(`${viewer.url}app.css`)).status).toBe(200);
    expect(await (await fetch(`${viewer.url}api/runs`)).json()).toMatchObject({ defaultRunId: fixture.runId });
  });

  it("refuses requests that name another host (DNS rebinding) and unknown paths", async () => {
    expect((await fetch(`${viewer.url}api/runs`, { headers: { host: "attacker.example:4173" } })).status).toBe(403);
    expect((await fetch(`${viewer.url}nope`)).status).toBe(404);
  });
});
