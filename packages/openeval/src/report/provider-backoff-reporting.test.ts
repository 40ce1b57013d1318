// A provider's back-off in the live display: a line for each change of its share of the candidates, and its share on
// the status line while it is below full; `--json` carries each change as it is.
import { describe, expect, it } from "vitest";
import type { ProviderBackoff, RunnerEvent } from "../summary/index.ts";
import { createJsonReporter } from "./json-reporter.ts";
import { createPlainReporter } from "./plain-reporter.ts";
import { createTtyProgress } from "./tty-progress.ts";

const backoff = (
  change: ProviderBackoff["change"],
  limit: number,
  extra: Partial<ProviderBackoff> = {},
): RunnerEvent => ({
  type: "provider.backoff",
  provider: "local",
  change,
  limit,
  max: 4,
  reason: null,
  message: null,
  retryAfterMs: null,
  ...extra,
});

/** A back-off and its recovery, as a run emits them. */
const EPISODE: RunnerEvent[] = [
  backoff("lowered", 2, { reason: "rate_limited", message: "Too Many Requests" }),
  backoff("resumed", 2, { retryAfterMs: 1_000 }),
  backoff("held", 2, { reason: "unavailable", message: "Service Unavailable" }),
  backoff("resumed", 2, { retryAfterMs: 2_500 }),
  backoff("raised", 3),
  backoff("recovered", 4),
];

describe("plain lines of a provider's back-off", () => {
  it("say what the provider answered, its share now, the wait for OpenCode's retry, and the recovery", () => {
    const lines: string[] = [];
    const report = createPlainReporter((line) => lines.push(line));
    for (const event of EPISODE) report(event);
    expect(lines).toEqual([
      `Provider local rate limited ("Too Many Requests"): at most 2 of 4 candidates at once; new ones wait for OpenCode's retry`,
      "Provider local: retried after 1.0 s; new candidates start again (at most 2 of 4 candidates at once)",
      `Provider local unavailable ("Service Unavailable") again: new candidates wait for OpenCode's retry (at most 2 of 4 candidates at once)`,
      "Provider local: retried after 2.5 s; new candidates start again (at most 2 of 4 candidates at once)",
      "Provider local answers: at most 3 of 4 candidates at once",
      "Provider local recovered: back to 4 of 4 candidates at once",
    ]);
  });
});

describe("the status line of a provider's back-off", () => {
  it("shows the provider's share while below full, waiting while its candidates wait, and nothing once recovered", () => {
    let output = "";
    const report = createTtyProgress({ write: (text: string) => (output += text), columns: 200 }, () => 0);
    const status = () => output.split("\r\x1b[2K").at(-1);
    report({ type: "queue.changed", running: 4, queued: 4, done: 0, runningSince: [0, 0, 0, 0], doneMs: 0 });
    expect(status()).not.toContain("local");
    const [lowered, resumed, , , raised, recovered] = EPISODE;
    report(lowered!);
    expect(status()).toContain("queued 4 · local 2/4 waiting · spent");
    report(resumed!);
    expect(status()).toContain("queued 4 · local 2/4 · spent");
    report(raised!);
    expect(status()).toContain("queued 4 · local 3/4 · spent");
    report(recovered!);
    expect(status()).toContain("queued 4 · spent");
    report({ type: "run.finished", runId: "r", directory: "/d", summary: {} as never });
  });
});

describe("--json", () => {
  it("writes each change of share as one event with the provider, change, limit, reason and retry wait", () => {
    const lines: string[] = [];
    const report = createJsonReporter((line) => lines.push(line));
    for (const event of EPISODE) report(event);
    expect(lines.map((line) => JSON.parse(line))).toEqual(EPISODE);
  });
});
