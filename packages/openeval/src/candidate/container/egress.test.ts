import { describe, expect, it } from "vitest";
import { planEgress } from "./egress.ts";

describe("planEgress", () => {
  it("keeps a loopback provider's base URL: a forwarder on the same port, only that port allowed, no proxy env", () => {
    expect(planEgress("http://127.0.0.1:41234/answer/v1", [])).toEqual({
      allow: ["127.0.0.1:41234"],
      forwards: [{ port: 41234, target: "127.0.0.1:41234" }],
      env: {},
    });
  });

  it("sends a remote provider through HTTPS_PROXY and allows its host:port only", () => {
    const plan = planEgress("https://api.example.com/v1", []);
    expect(plan.allow).toEqual(["api.example.com:443"]);
    expect(plan.forwards).toEqual([{ port: 3128, target: null }]);
    expect(plan.env.HTTPS_PROXY).toBe("http://127.0.0.1:3128");
    expect(plan.env.NO_PROXY).toBe("127.0.0.1,localhost");
  });

  it("adds candidate.network.allow entries (default port 443), and refuses what is not a host", () => {
    expect(planEgress(null, ["Registry.example.org", "mirror.example:8080"]).allow).toEqual([
      "mirror.example:8080",
      "registry.example.org:443",
    ]);
    expect(planEgress(null, []).forwards).toEqual([]);
    expect(() => planEgress(null, ["http://x"])).toThrow(/not a host or host:port/);
  });
});
