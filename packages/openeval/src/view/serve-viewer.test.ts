import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir } from "../../../../test/helpers/fixtures.ts";
import { serveViewer, type ViewerServer } from "./serve-viewer.ts";
import { writeViewerFixture, type ViewerFixture } from "./fixtures/viewer-run.ts";

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

  // HTTP/1.1 requires Host (Bun refuses it itself); HTTP/1.0 does not, and reaches the viewer.
  it.each(["GET /api/runs HTTP/1.0\r\n\r\n", "GET / HTTP/1.1\r\nConnection: close\r\n\r\n"])(
    "answers a request without a Host header with 400, never a development error page: %j",
    async (request) => {
      const answer = await rawRequest(viewer.port, request);
      expect(answer.split("\r\n")[0]).toMatch(/^HTTP\/1\.[01] 400/);
      if (request.includes("HTTP/1.0")) expect(answer).toContain("A Host header is required");
      expect(answer).not.toMatch(/\.ts|node_modules|<html/);
    },
  );
});

/** One raw HTTP exchange over TCP (fetch always sends a Host header). */
async function rawRequest(port: number, request: string): Promise<string> {
  const { promise, resolve, reject } = Promise.withResolvers<string>();
  let answer = "";
  const socket = connect({ host: "127.0.0.1", port }, () => socket.write(request));
  socket.setEncoding("utf8");
  socket.on("data", (chunk: string) => {
    answer += chunk;
  });
  socket.on("end", () => resolve(answer));
  socket.on("error", reject);
  setTimeout(() => {
    socket.destroy();
    resolve(answer);
  }, 3000);
  return promise;
}
