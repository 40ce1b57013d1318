// Placement and health of an engine pool, over engines that answer or not as each test says (the real engines are
// in test/containers/engine-pool.test.ts): most free capacity first, capacity bounds, images before the first lease,
// a lost engine's leases aborted with the cause and nothing placed there until it answers again.
import { describe, expect, it } from "vitest";
import type { ContainerEngine } from "./container/container-engine.ts";
import { openEnginePool, type EngineLease, type PoolMember } from "./engine-pool.ts";

interface FakeEngine {
  /** What its ping answers: nothing (ok), or an error message. */
  down: string | null;
  engine: ContainerEngine;
}

function fakeEngines(names: string[]): Map<string, FakeEngine> {
  return new Map(
    names.map((name) => {
      const fake: FakeEngine = {
        down: null,
        engine: {
          address: `unix:///run/${name}.sock`,
          ping: async () => {
            if (fake.down) throw new Error(fake.down);
          },
        } as unknown as ContainerEngine,
      };
      return [name, fake];
    }),
  );
}

function openPool(
  members: PoolMember[],
  fakes: Map<string, FakeEngine>,
  prepare?: (member: PoolMember) => Promise<void>,
) {
  return openEnginePool(members, {
    checkEveryMs: 60_000,
    connect: async (options) => {
      const fake = fakes.get(options.host!.replace("unix:///run/", "").replace(".sock", ""))!;
      if (fake.down) throw new Error(fake.down);
      return fake.engine;
    },
    ...(prepare ? { prepare: (member) => prepare(member) } : {}),
  });
}

const member = (name: string, capacity: number | null): PoolMember => ({
  name,
  options: { host: `unix:///run/${name}.sock` },
  capacity,
});

describe("an engine pool", () => {
  it("places each lease on the engine with the most free capacity, within each engine's capacity", async () => {
    const fakes = fakeEngines(["a", "b"]);
    const pool = openPool([member("a", 2), member("b", 1)], fakes);
    const leases: EngineLease[] = [];
    for (let index = 0; index < 3; index++) leases.push(await pool.acquire());
    // a has 2 free, then a tie of 1 and 1 goes to the first listed, then b.
    expect(leases.map((lease) => lease.name)).toEqual(["a", "a", "b"]);
    expect(pool.states().map(({ name, running }) => ({ name, running }))).toEqual([
      { name: "a", running: 2 },
      { name: "b", running: 1 },
    ]);
    // Full: the fourth waits until a place is released, then goes where it was freed.
    let fourth: EngineLease | null = null;
    const waiting = pool.acquire().then((lease) => (fourth = lease));
    await Bun.sleep(10);
    expect(fourth).toBeNull();
    leases[2]!.release();
    await waiting;
    expect(fourth!.name).toBe("b");
    expect(pool.states().find((state) => state.name === "b")).toMatchObject({ running: 1, done: 1 });
    pool.close();
  });

  it("makes an engine's images present before its first lease, once", async () => {
    const fakes = fakeEngines(["a", "b"]);
    const prepared: string[] = [];
    const pool = openPool([member("a", 1), member("b", 1)], fakes, async ({ name }) => void prepared.push(name));
    const [first, second] = [await pool.acquire(), await pool.acquire()];
    first.release();
    second.release();
    await pool.acquire();
    expect(prepared.sort()).toEqual(["a", "b"]);
    pool.close();
  });

  it("takes an engine whose images cannot be made present out of the run, and places the work elsewhere", async () => {
    const fakes = fakeEngines(["a", "b"]);
    const pool = openPool([member("a", 1), member("b", 5)], fakes, async ({ name }) => {
      if (name === "b") throw new Error("no space left on device");
    });
    const lease = await pool.acquire();
    expect(lease.name).toBe("a");
    expect(pool.states().find((state) => state.name === "b")).toMatchObject({
      health: "unusable",
      problem: "no space left on device",
      running: 0,
    });
    pool.close();
  });

  it("aborts a lost engine's leases with the cause, places nothing there, and places again once it answers", async () => {
    const fakes = fakeEngines(["a", "b"]);
    const pool = openPool([member("a", 4), member("b", 1)], fakes);
    const onA = await pool.acquire();
    expect(onA.name).toBe("a");
    fakes.get("a")!.down = "connect ECONNREFUSED 10.0.0.2:2375";
    expect(await onA.check()).toBe('engine "a" lost: connect ECONNREFUSED 10.0.0.2:2375');
    expect(onA.lost.aborted).toBe(true);
    expect((onA.lost.reason as Error).message).toBe('engine "a" lost: connect ECONNREFUSED 10.0.0.2:2375');
    onA.release({ failed: true });
    expect(pool.states()[0]).toMatchObject({ health: "lost", failed: 1, running: 0 });
    expect((await pool.acquire()).name).toBe("b");
    fakes.get("a")!.down = null;
    expect(await onA.check()).toBeNull();
    expect(pool.states()[0]).toMatchObject({ health: "ok", problem: null });
    expect((await pool.acquire()).name).toBe("a");
    pool.close();
  });

  it("loses an engine that is slow only after three slow answers in a row", async () => {
    const fakes = fakeEngines(["a"]);
    const pool = openPool([member("a", 1)], fakes);
    const lease = await pool.acquire();
    fakes.get("a")!.down = "no answer within 10 s";
    expect(await lease.check()).toBeNull();
    expect(await lease.check()).toBeNull();
    expect(await lease.check()).toBe('engine "a" lost: no answer within 10 s');
    pool.close();
  });

  it("refuses work when no engine of the pool answers, naming each and why", async () => {
    const fakes = fakeEngines(["a", "b"]);
    fakes.get("a")!.down = "connect ENOENT /run/a.sock";
    fakes.get("b")!.down = "connect ENOENT /run/b.sock";
    const pool = openPool([member("a", 1), member("b", 1)], fakes);
    const refused = await pool.acquire().catch((error: Error) => error);
    expect(refused).toMatchObject({ code: "OE_NO_ENGINE_ANSWERS" });
    expect((refused as Error).message).toContain("a (lost: connect ENOENT /run/a.sock)");
    expect((refused as Error).message).toContain("b (lost: connect ENOENT /run/b.sock)");
    pool.close();
  });

  it("refuses an empty pool and an engine name it does not hold", () => {
    expect(() => openEnginePool([])).toThrow(/at least one engine/);
    const pool = openPool([member("a", 1)], fakeEngines(["a"]));
    expect(() => pool.engine("z")).toThrow('No engine "z" in the pool; its engines are: a');
    pool.close();
  });
});
