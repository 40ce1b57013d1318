import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkEndpoint, preflightTarget } from "./preflight.ts";
import { closedPort } from "../../../../test/helpers/ports.ts";

let seen: { path: string; authorization: string | null }[] = [];
let server: ReturnType<typeof Bun.serve>;
beforeAll(() => {
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      seen.push({ path: new URL(request.url).pathname, authorization: request.headers.get("authorization") });
      return new Response("no", { status: 401 });
    },
  });
});
afterAll(() => server.stop(true));

describe("preflightTarget", () => {
  it("is the configured baseURL of the model's provider, and null for catalog providers", () => {
    const providers = { local: { npm: "@ai-sdk/openai-compatible", options: { baseURL: "http://127.0.0.1:8080/v1/", apiKey: "sk-local" } } };
    expect(preflightTarget("local/qwen#fast", providers)).toEqual({ provider: "local", baseURL: "http://127.0.0.1:8080/v1", apiKey: "sk-local" });
    expect(preflightTarget("anthropic/claude-sonnet-4-5", providers)).toBeNull();
  });
});

describe("checkEndpoint", () => {
  it("passes an endpoint that answers at all, with one free GET /models (never a completion)", async () => {
    seen = [];
    expect(await checkEndpoint({ provider: "local", baseURL: `http://127.0.0.1:${server.port}/v1`, apiKey: "sk-local" })).toBeNull();
    expect(seen).toEqual([{ path: "/v1/models", authorization: "Bearer sk-local" }]);
  });

  it("names the URL and the provider, and says what to do, when nothing listens", async () => {
    const port = await closedPort();
    const error = await checkEndpoint({ provider: "down", baseURL: `http://127.0.0.1:${port}/v1`, apiKey: null });
    expect(error).toContain(`Provider "down" is unreachable at http://127.0.0.1:${port}/v1`);
    expect(error).toContain("candidate.providers.down.options.baseURL");
    expect(error).toContain("openeval retry");
  });
});
