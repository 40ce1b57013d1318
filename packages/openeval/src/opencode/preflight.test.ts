import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkEndpoint, describeEndpointProblem, preflightTarget } from "./preflight.ts";
import { closedPort } from "../../../../test/helpers/ports.ts";

let seen: { path: string; authorization: string | null }[] = [];
let server: ReturnType<typeof Bun.serve>;
beforeAll(() => {
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      const path = new URL(request.url).pathname;
      seen.push({ path, authorization: request.headers.get("authorization") });
      if (path.startsWith("/page/"))
        return new Response("<html>a web page</html>", { headers: { "content-type": "text/html" } });
      if (path.startsWith("/openai/")) return Response.json({ object: "list", data: [] });
      if (!path.startsWith("/v1/")) return new Response("File Not Found", { status: 404 });
      return new Response("no", { status: 401 });
    },
  });
});
afterAll(() => server.stop(true));

describe("preflightTarget", () => {
  it("is the configured baseURL of the model's provider, and null for catalog providers", () => {
    const providers = {
      local: {
        npm: "@ai-sdk/openai-compatible",
        options: { baseURL: "http://127.0.0.1:8080/v1/", apiKey: "sk-local" },
      },
    };
    expect(preflightTarget("local/qwen#fast", providers)).toEqual({
      provider: "local",
      baseURL: "http://127.0.0.1:8080/v1",
      apiKey: "sk-local",
    });
    expect(preflightTarget("anthropic/claude-sonnet-4-5", providers)).toBeNull();
  });
});

describe("checkEndpoint", () => {
  it("passes an endpoint that answers at all, with one free GET /models (never a completion)", async () => {
    seen = [];
    expect(
      await checkEndpoint({ provider: "local", baseURL: `http://127.0.0.1:${server.port}/v1`, apiKey: "sk-local" }),
    ).toBeNull();
    expect(seen).toEqual([{ path: "/v1/models", authorization: "Bearer sk-local" }]);
  });

  it("passes a JSON answer at /models", async () => {
    expect(
      await checkEndpoint({ provider: "local", baseURL: `http://127.0.0.1:${server.port}/openai`, apiKey: null }),
    ).toBeNull();
  });

  it("names the URL and the provider, and says what to do, when nothing listens", async () => {
    const port = await closedPort();
    const problem = await checkEndpoint({ provider: "down", baseURL: `http://127.0.0.1:${port}/v1`, apiKey: null });
    expect(problem?.kind).toBe("unreachable");
    const message = describeEndpointProblem(problem!);
    expect(message).toContain(`Provider "down" is unreachable at http://127.0.0.1:${port}/v1`);
    expect(message).toContain("so this slot did not run");
    expect(message).toContain("candidate.providers.down.options.baseURL");
    expect(message).toContain("openeval retry");
  });

  it("calls a 404 at /models a wrong path, a setup error that names the URL and suggests /v1", async () => {
    const baseURL = `http://127.0.0.1:${server.port}`;
    const problem = await checkEndpoint({ provider: "local", baseURL, apiKey: null });
    expect(problem).toEqual({
      kind: "wrong_path",
      finding: `Setup error of provider "local": GET ${baseURL}/models answered 404 Not Found: ${baseURL} is not the root of an OpenAI-compatible API`,
      remedy: `Fix benchmark.ts candidate.providers.local.options.baseURL (most servers serve it under /v1: try ${baseURL}/v1); then openeval retry this eval run.`,
    });
  });

  it("calls a page that is not JSON a wrong path too", async () => {
    const baseURL = `http://127.0.0.1:${server.port}/page`;
    const problem = await checkEndpoint({ provider: "local", baseURL, apiKey: null });
    expect(problem?.kind).toBe("wrong_path");
    expect(problem?.finding).toContain(`GET ${baseURL}/models answered 200 with a body that is not JSON`);
  });
});
