// Placing slot work on the pool: a lease with the runner's signal joined to the engine's loss; when no engine can take
// it, why; when the runner stops while it waits, nothing. Judging that cannot be placed stays unjudged for the next run.
import { describe, expect, it } from "vitest";
import type { EngineLease, EnginePool } from "../sandbox/index.ts";
import { placeOnEngine } from "./engine-lease.ts";
import { runJudgeWork, type SlotWork, type WorkContext } from "./slot-work.ts";

function poolThat(acquire: EnginePool["acquire"]): EnginePool {
  return { acquire } as EnginePool;
}

const lease = (lost: AbortSignal): EngineLease => ({ name: "b", lost }) as EngineLease;

describe("placeOnEngine", () => {
  it("joins the runner's signal and the engine's loss in the signal the work runs with", async () => {
    const runner = new AbortController();
    const engine = new AbortController();
    const placed = await placeOnEngine(
      poolThat(async () => lease(engine.signal)),
      runner.signal,
    );
    expect(placed.kind).toBe("placed");
    if (placed.kind !== "placed") return;
    expect(placed.signal.aborted).toBe(false);
    engine.abort(new Error('engine "b" lost: connect ECONNREFUSED'));
    expect(placed.signal.aborted).toBe(true);
    expect((placed.signal.reason as Error).message).toBe('engine "b" lost: connect ECONNREFUSED');
  });

  it("says why when no engine can take the work, and is silent when the runner is stopping", async () => {
    const refused = poolThat(async () => {
      throw new Error("No engine of the pool can take work: a (lost: x)");
    });
    expect(await placeOnEngine(refused, undefined)).toEqual({
      kind: "unplaced",
      problem: "No engine of the pool can take work: a (lost: x)",
    });
    const stopping = new AbortController();
    stopping.abort();
    expect(await placeOnEngine(refused, stopping.signal)).toEqual({ kind: "stopping" });
  });
});

describe("judging that verifies, with no engine to place it on", () => {
  it("records nothing (the slot stays unjudged for the next run) and says so", async () => {
    const notices: string[] = [];
    const saved: unknown[] = [];
    const slot = { evalId: "checked", model: "p/m", variant: "current", repetition: 1 };
    const context = {
      benchmark: { evals: [{ id: "checked", code: { source: "ctx.verification.run()" }, harbor: null }] },
      restoreInputs: async () => true,
      store: { saveJudgeRun: (record: unknown) => saved.push(record) },
      emit: (event: { type: string; message?: string }) => event.type === "notice" && notices.push(event.message!),
      verification: { image: "sha256:v", unavailable: null, engine: {}, limits: {} },
      isolation: { environments: { pinnedFor: () => null } },
      engines: poolThat(async () => {
        throw new Error("No engine of the pool can take work: a (lost: gone)");
      }),
    } as unknown as WorkContext;
    const work = { kind: "judge", slot, evalRun: { id: "eval_1" } } as unknown as SlotWork;
    await runJudgeWork(work, context);
    expect(saved).toEqual([]);
    expect(notices).toEqual([
      "Judging checked × p/m #1 waits for the next run: No engine of the pool can take work: a (lost: gone)",
    ]);
  });
});
