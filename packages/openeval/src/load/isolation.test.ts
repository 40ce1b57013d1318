import { describe, expect, it } from "vitest";
import { resolveIsolation } from "./isolation.ts";
import { BenchmarkSchema } from "./schema.ts";

const settings = (candidate: Record<string, unknown> = {}) => BenchmarkSchema.parse({ models: ["p/m"], candidate });

describe("resolveIsolation", () => {
  it("defaults to containers for real models and the process backend for controls", () => {
    expect(resolveIsolation("anthropic/claude-sonnet-4-5", settings())).toBe("container");
    expect(resolveIsolation("control/positive", settings())).toBe("process");
  });

  it("takes benchmark.ts candidate.isolation for every model, and --isolation over both", () => {
    expect(resolveIsolation("control/positive", settings({ isolation: "container" }))).toBe("container");
    expect(resolveIsolation("p/m", settings({ isolation: "process" }))).toBe("process");
    expect(resolveIsolation("p/m", settings({ isolation: "container" }), "process")).toBe("process");
  });

  it("validates candidate.container: limits are positive, host is an engine address", () => {
    expect(
      settings({ container: { cpus: 1.5, memoryMiB: 2048, pidsLimit: 256, host: "tcp://127.0.0.1:2375" } }).candidate
        .container,
    ).toEqual({ cpus: 1.5, memoryMiB: 2048, pidsLimit: 256, host: "tcp://127.0.0.1:2375" });
    expect(() => settings({ container: { memoryMiB: 0 } })).toThrow();
    expect(() => settings({ container: { host: "127.0.0.1:2375" } })).toThrow(/engine address/);
  });
});
