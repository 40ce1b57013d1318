import { describe, expect, it } from "vitest";
import { planEgress, refusedConnections } from "./egress.ts";

describe("planEgress", () => {
  it("keeps a loopback provider's base URL (a forwarder on the same port, only that port allowed) and still proxies the rest, to refuse and log it", () => {
    const plan = planEgress("http://127.0.0.1:41234/answer/v1", []);
    expect(plan.allow).toEqual(["127.0.0.1:41234"]);
    expect(plan.forwards).toEqual([
      { port: 41234, target: "127.0.0.1:41234" },
      { port: 3128, target: null },
    ]);
    expect(plan.env).toMatchObject({ HTTPS_PROXY: "http://127.0.0.1:3128", NO_PROXY: "127.0.0.1,localhost" });
    // A provider on the proxy's own port keeps it: no second listener there.
    expect(planEgress("http://127.0.0.1:3128/v1", []).forwards).toEqual([{ port: 3128, target: "127.0.0.1:3128" }]);
  });

  it("reads the refusals of an egress log, plain requests named by their host", () => {
    const log =
      "listening 127.0.0.1:3128\nrefused answers.example.invalid:443\nrefused a request that is not CONNECT\n";
    expect(refusedConnections(log)).toEqual(["answers.example.invalid:443", null]);
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
    expect(planEgress(null, []).forwards).toEqual([{ port: 3128, target: null }]);
    expect(() => planEgress(null, ["http://x"])).toThrow(/not a host or host:port/);
  });
});
