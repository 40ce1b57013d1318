import { describe, expect, it } from "vitest";
import { configuredEngines } from "./engine-pool.ts";
import { BenchmarkSchema } from "./schema.ts";

const candidate = (container: Record<string, unknown>) =>
  BenchmarkSchema.parse({ models: ["p/m"], candidate: { container } }).candidate;
const problems = (container: Record<string, unknown>) => {
  const parsed = BenchmarkSchema.safeParse({ models: ["p/m"], candidate: { container } });
  return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
};

describe("candidate.container.engines", () => {
  it("is the pool, in its order, with each engine's capacity and TLS folder", () => {
    const engines = [
      { name: "a", host: "unix:///var/run/docker.sock", capacity: 4 },
      { name: "b", host: "tcp://10.0.0.2:2376", capacity: 2, tls: { certPath: "/etc/openeval/b" } },
      { name: "c", host: "tcp://10.0.0.3:2375", capacity: 1, insecure: true },
    ];
    expect(configuredEngines(candidate({ engines }), {})).toEqual(engines);
  });

  it("is one engine named default, bounded by concurrency only, without it (host, DOCKER_HOST or the local socket)", () => {
    expect(configuredEngines(candidate({}), {})).toEqual([{ name: "default", capacity: null }]);
    expect(configuredEngines(candidate({ host: "tcp://127.0.0.1:2375" }), {})).toEqual([
      { name: "default", host: "tcp://127.0.0.1:2375", capacity: null },
    ]);
  });

  it("refuses plain TCP to another machine unless insecure: true is written beside it, naming the engine", () => {
    expect(problems({ engines: [{ name: "far", host: "tcp://10.1.2.3:2375", capacity: 2 }] })).toEqual([
      expect.stringMatching(
        /^candidate\.container\.engines\.0\.host: engine "far" at tcp:\/\/10\.1\.2\.3:2375 is plain TCP on an address other than loopback, .*TLS/,
      ),
    ]);
    expect(problems({ host: "tcp://192.168.1.9:2375" })).toEqual([
      expect.stringMatching(/^candidate\.container\.host: is plain TCP on an address other than loopback/),
    ]);
    // Loopback is this machine: plain TCP there is as safe as its unix socket.
    expect(problems({ engines: [{ name: "near", host: "tcp://127.0.0.1:2375", capacity: 2 }] })).toEqual([]);
  });

  it("refuses what it would otherwise ignore: insecure or tls where they mean nothing, duplicate names, host beside engines", () => {
    expect(problems({ engines: [{ name: "a", host: "unix:///run/a.sock", capacity: 1, insecure: true }] })).toEqual([
      'candidate.container.engines.0.insecure: engine "a": insecure: true is only for a plain tcp:// engine on another machine; remove it',
    ]);
    expect(
      problems({ engines: [{ name: "a", host: "unix:///run/a.sock", capacity: 1, tls: { certPath: "/x" } }] }),
    ).toEqual([
      'candidate.container.engines.0.tls: engine "a": tls applies to tcp:// engines only; remove it or give a tcp:// host',
    ]);
    expect(
      problems({
        engines: [
          { name: "a", host: "unix:///run/a.sock", capacity: 1 },
          { name: "a", host: "unix:///run/b.sock", capacity: 1 },
        ],
      }),
    ).toEqual(['candidate.container.engines.1.name: duplicate engine name "a"']);
    expect(
      problems({ host: "unix:///run/a.sock", engines: [{ name: "a", host: "unix:///run/a.sock", capacity: 1 }] }),
    ).toEqual([
      "candidate.container.engines: give either host (one engine) or engines (a pool), not both: one engine is a pool of one",
    ]);
    expect(problems({ engines: [{ name: "a", host: "unix:///run/a.sock", capacity: 0 }] })).toEqual([
      "candidate.container.engines.0.capacity: must be how many sandboxes it may run at once (1 or more)",
    ]);
    expect(problems({ engines: [{ name: "a", host: "unix:///run/a.sock" }] })[0]).toMatch(/capacity/);
  });
});

describe("OPENEVAL_ENGINES", () => {
  it("is the pool as JSON, checked like benchmark.ts's list", () => {
    const engines = [{ name: "a", host: "unix:///run/a.sock", capacity: 3 }];
    expect(configuredEngines(candidate({}), { OPENEVAL_ENGINES: JSON.stringify(engines) })).toEqual(engines);
    expect(() => configuredEngines(candidate({}), { OPENEVAL_ENGINES: "a=unix:///run/a.sock" })).toThrow(
      /^OPENEVAL_ENGINES is not JSON .*: give a list such as/,
    );
    expect(() =>
      configuredEngines(candidate({}), {
        OPENEVAL_ENGINES: JSON.stringify([{ name: "far", host: "tcp://10.9.9.9:2375", capacity: 1 }]),
      }),
    ).toThrow(
      /^OPENEVAL_ENGINES is not a valid engine list: \[0\]\.host: engine "far" at tcp:\/\/10\.9\.9\.9:2375 is plain TCP/,
    );
  });

  it("is refused beside engines named in benchmark.ts, rather than one silently winning", () => {
    const engines = [{ name: "a", host: "unix:///run/a.sock", capacity: 3 }];
    expect(() => configuredEngines(candidate({ engines }), { OPENEVAL_ENGINES: JSON.stringify(engines) })).toThrow(
      "OPENEVAL_ENGINES is set, and benchmark.ts also names its engines (candidate.container.engines): unset one of them",
    );
    expect(() =>
      configuredEngines(candidate({ host: "unix:///run/a.sock" }), { OPENEVAL_ENGINES: JSON.stringify(engines) }),
    ).toThrow(/also names its engine \(candidate\.container\.host\)/);
  });
});
