import { describe, expect, test } from "vitest";
import { classifyPressure, readProviderSignal } from "./provider-signals.ts";

// Lines as OpenCode 1.18.33 wrote them (--print-logs) for a provider answering 429 with `retry-after` and no body.
const SENT =
  "timestamp=2026-12-05T01:27:06.161Z level=INFO run=20e22069 message=stream providerID=local modelID=ok session.id=ses_dbc3 small=false agent=build mode=primary";
const failed = (error: string) =>
  `timestamp=2026-12-05T01:27:06.325Z level=ERROR run=20e22069 message="stream error" providerID=local modelID=ok session.id=ses_dbc3 small=false agent=build mode=primary error.error=${error}`;

describe("readProviderSignal", () => {
  test("a request sent, with its provider and session", () => {
    expect(readProviderSignal(SENT)).toEqual({ kind: "sent", provider: "local", sessionID: "ses_dbc3" });
  });

  test("a failed request: the provider's message without the error class, and whether it says the provider is loaded", () => {
    expect(readProviderSignal(failed('"AI_APICallError: Too Many Requests"'))).toEqual({
      kind: "failed",
      provider: "local",
      sessionID: "ses_dbc3",
      pressure: "rate_limited",
      message: "Too Many Requests",
    });
    expect(readProviderSignal(failed('"AI_APICallError: Service Unavailable"'))).toMatchObject({
      pressure: "unavailable",
      message: "Service Unavailable",
    });
    expect(readProviderSignal(failed('"AI_APICallError: say \\"no\\" to this"'))).toMatchObject({
      pressure: null,
      message: 'say "no" to this',
    });
    expect(readProviderSignal(failed("Overloaded"))).toMatchObject({ pressure: "unavailable", message: "Overloaded" });
  });

  test("requests of the small model (titles) and lines of no session are no signal", () => {
    expect(readProviderSignal(SENT.replace("small=false", "small=true"))).toBeNull();
    expect(readProviderSignal('timestamp=x level=INFO run=1 message="creating instance" directory=/ws')).toBeNull();
    expect(readProviderSignal("timestamp=x level=INFO run=1 message=loop session.id=ses_dbc3 step=1")).toBeNull();
  });
});

describe("classifyPressure", () => {
  test.each([
    ["Too Many Requests", "rate_limited"],
    ["Rate limit reached for gpt-4o in organization org-x on tokens per min (TPM)", "rate_limited"],
    ["Number of request tokens has exceeded your per-minute rate limit", "rate_limited"],
    ["You exceeded your current quota, please check your plan and billing details.", "rate_limited"],
    ["Resource has been exhausted (e.g. check quota).", "rate_limited"],
    ["Service Unavailable", "unavailable"],
    ["Overloaded", "unavailable"],
    ["The server is overloaded or not ready yet.", "unavailable"],
    ["Bad Request", null],
    ["Cannot connect to API: connect ECONNREFUSED 127.0.0.1:4000", null],
    ["Internal Server Error", null],
  ])("%s → %s", (message, pressure) => {
    expect(classifyPressure(message)).toBe(pressure);
  });
});
