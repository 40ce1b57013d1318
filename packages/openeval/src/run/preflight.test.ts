import { afterEach, describe, expect, it } from "vitest";
import type { BenchmarkDefinition } from "../load/index.ts";
import { createPreflight } from "./preflight.ts";

let server: ReturnType<typeof Bun.serve> | null = null;
afterEach(() => server?.stop(true));

function benchmarkWith(providers: Record<string, Record<string, unknown>>): BenchmarkDefinition {
  return { settings: { candidate: { providers } } } as unknown as BenchmarkDefinition;
}

describe("createPreflight", () => {
  it("checks each provider once for all its models, until a slot's failure makes it check again", async () => {
    let requests = 0;
    server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => (requests++, Response.json({ data: [] })) });
    const baseURL = `http://127.0.0.1:${server.port}/v1`;
    const preflight = createPreflight(benchmarkWith({ local: { options: { baseURL } } }));
    expect(await preflight.check("local/a")).toBeNull();
    expect(await preflight.check("local/b")).toBeNull();
    expect(requests).toBe(1);

    // The server dies mid-run: the failed slot's fresh check finds it down, and the later slots fail at once.
    server.stop(true);
    const recheck = await preflight.recheck("local/a");
    expect(recheck).toMatchObject({
      kind: "unreachable",
      finding: expect.stringContaining(`Provider "local" is unreachable at ${baseURL}`),
    });
    expect(await preflight.check("local/b")).toEqual(recheck);
  });

  it("cannot check catalog providers and controls, and says so", async () => {
    const preflight = createPreflight(benchmarkWith({}));
    expect(await preflight.check("anthropic/claude-sonnet-4-5")).toBeNull();
    expect(await preflight.recheck("anthropic/claude-sonnet-4-5")).toBe("unchecked");
    expect(await preflight.recheck("control/positive")).toBe("unchecked");
  });

  it("says a fresh check of a live endpoint answers", async () => {
    server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => Response.json({ data: [] }) });
    const preflight = createPreflight(
      benchmarkWith({ local: { options: { baseURL: `http://127.0.0.1:${server.port}/v1` } } }),
    );
    expect(await preflight.recheck("local/a")).toBe("answers");
  });
});
