import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../../../test/helpers/fixtures.ts";
import { BenchmarkSchema } from "../load/index.ts";
import { ResultsStore } from "../records/index.ts";
import { readVerdictSettings, recordVerdictSettings, verdictSettingsOf } from "./verdict-settings.ts";

const settings = (extra: object = {}) =>
  BenchmarkSchema.parse({
    models: ["local/m"],
    gates: { score: { min: 0.8 }, criteria: { ok: { min: 1 } } },
    candidate: { providers: { local: { options: { apiKey: "sk-secret-123" } } } },
    ...extra,
  });

describe("verdict settings", () => {
  it("keep gates, thresholds and both selections, and the providers only as a fingerprint (they may hold keys)", () => {
    const recorded = verdictSettingsOf(settings({ verdict: { regression: false } }), { only: ["gates"] });
    expect(recorded).toMatchObject({
      gates: { score: { min: 0.8 }, criteria: { ok: { min: 1 } } },
      configured: { regression: false },
      selection: { only: ["gates"] },
    });
    expect(JSON.stringify(recorded)).not.toContain("sk-secret-123");
  });

  it("change their fingerprint when benchmark.ts's verdict settings change, not when the command line's selection does", () => {
    const base = verdictSettingsOf(settings());
    expect(verdictSettingsOf(settings(), { gate: ["gates"] }).fingerprint).toBe(base.fingerprint);
    expect(verdictSettingsOf(settings({ gates: { score: { min: 0.9 } } })).fingerprint).not.toBe(base.fingerprint);
    expect(verdictSettingsOf(settings({ judge: { timeoutMs: 5 } })).fingerprint).not.toBe(base.fingerprint);
    // The invariants manifest is part of it; none declared keeps the fingerprint runs recorded before invariants had.
    const invariant = { id: "a", argv: ["true"], over: "summary" };
    const declared = verdictSettingsOf(settings({ invariants: [invariant] }));
    expect(declared.fingerprint).not.toBe(base.fingerprint);
    expect(verdictSettingsOf(settings({ invariants: [] })).fingerprint).toBe(base.fingerprint);
    expect(verdictSettingsOf(settings({ invariants: [{ ...invariant, argv: ["false"] }] })).fingerprint).not.toBe(
      declared.fingerprint,
    );
    expect(verdictSettingsOf(settings(), { noInvariants: true })).toMatchObject({ selection: { noInvariants: true } });
  });

  it("hold the candidate's token and step limits only when set, so runs recorded before them keep their fingerprint", () => {
    const base = verdictSettingsOf(settings());
    const providers = { local: { options: { apiKey: "sk-secret-123" } } };
    const limited = verdictSettingsOf(settings({ candidate: { providers, maxTokens: 1000, maxSteps: 5 } }));
    expect(base.candidate).not.toHaveProperty("maxTokens");
    expect(limited.candidate).toMatchObject({ maxTokens: 1000, maxSteps: 5 });
    expect(limited.fingerprint).not.toBe(base.fingerprint);
    expect(verdictSettingsOf(settings({ candidate: { providers, maxSteps: 6 } })).fingerprint).not.toBe(
      verdictSettingsOf(settings({ candidate: { providers, maxSteps: 5 } })).fingerprint,
    );
  });

  it("are read back as the latest recorded, and as null for a run that recorded none", async () => {
    const store = ResultsStore.open(await makeTempDir(), { create: true });
    try {
      expect(readVerdictSettings(store)).toBeNull();
      recordVerdictSettings(store, verdictSettingsOf(settings()));
      const later = verdictSettingsOf(settings({ gates: { cost: { maxUSD: 3 } } }));
      recordVerdictSettings(store, later);
      expect(readVerdictSettings(store)).toEqual(later);
    } finally {
      store.close();
    }
  });
});
