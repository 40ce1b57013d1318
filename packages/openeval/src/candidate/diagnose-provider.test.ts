import { describe, expect, it } from "vitest";
import { diagnoseProvider, type EndpointCheck } from "./diagnose-provider.ts";

const timedOut = {
  infrastructureError: true,
  setupError: false,
  waitedForFirstAnswer: true,
  error: "The model had not finished its first answer after 300 s.",
};
const limit = { setting: "candidate.timeoutMs in benchmark.ts", ms: 300_000, endpoint: "http://127.0.0.1:8080/v1" };
const checked = (check: EndpointCheck) => async () => check;

describe("diagnoseProvider", () => {
  it("calls a provider that still answers too slow for the limit: a setup error naming the setting", async () => {
    expect(await diagnoseProvider(timedOut, checked("answers"), limit)).toEqual({
      error:
        "The model had not finished its first answer after 300 s. Checked again, the endpoint at http://127.0.0.1:8080/v1 answers: the model is too slow for this limit, not down. " +
        "Raise candidate.timeoutMs in benchmark.ts above 300000 ms for this model, then openeval retry this eval run (with the same limit it would time out again).",
      setupError: true,
    });
  });

  it("calls a provider that no longer answers down: an infrastructure error naming its URL", async () => {
    const down = {
      kind: "unreachable",
      finding: 'Provider "local" is unreachable at http://127.0.0.1:8080/v1 (GET …: refused)',
      remedy: "Start the server.",
    } as const;
    expect(await diagnoseProvider(timedOut, checked(down), limit)).toEqual({
      error:
        'The model had not finished its first answer after 300 s. Checked again: Provider "local" is unreachable at http://127.0.0.1:8080/v1 (GET …: refused). Start the server.',
      setupError: false,
    });
  });

  it("leaves what it cannot check, the candidate's own endings and setup errors alone", async () => {
    let checks = 0;
    const counted = async (): Promise<EndpointCheck> => (checks++, "answers");
    expect(await diagnoseProvider(timedOut, checked("unchecked"), limit)).toEqual({
      error: timedOut.error,
      setupError: false,
    });
    expect(await diagnoseProvider({ ...timedOut, infrastructureError: false }, counted, limit)).toEqual({
      error: timedOut.error,
      setupError: false,
    });
    expect(await diagnoseProvider({ ...timedOut, setupError: true }, counted, limit)).toEqual({
      error: timedOut.error,
      setupError: true,
    });
    expect(checks).toBe(0);
    const failed = { ...timedOut, waitedForFirstAnswer: false, error: "APIError: Cannot connect" };
    expect(await diagnoseProvider(failed, counted, limit)).toEqual({
      error: "APIError: Cannot connect",
      setupError: false,
    });
    expect(checks).toBe(1);
  });
});
