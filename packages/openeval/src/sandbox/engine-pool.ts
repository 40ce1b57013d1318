// A pool of container engines that work is placed on (docs/guide/engine-pool.md): each lease goes to the answering
// engine with the most free capacity, after the images it needs are there; an engine that stops answering is lost —
// its leases are aborted with the cause and nothing more is placed on it until it answers again.
import type { ContainerEngine } from "./container/container-engine.ts";
import { engineAddress, errorMessage, type EngineOptions } from "./container/engine.ts";
import { openSandboxEngine } from "./engines.ts";
import { SandboxError } from "./errors.ts";
import type { EngineHealth, EngineState } from "../util/engine-state.ts";

export interface PoolMember {
  name: string;
  options: EngineOptions;
  /** Sandboxes it runs at once; null: unbounded (the run's concurrency bounds it). */
  capacity: number | null;
}

export type { EngineHealth, EngineState };

export interface EngineLease {
  readonly name: string;
  readonly options: EngineOptions;
  readonly engine: ContainerEngine;
  /** Aborted when the engine is lost while the work runs; its reason says so (`engine "b" lost: …`). */
  readonly lost: AbortSignal;
  /** Asks the engine now: the cause when it is lost (a failed piece of work asks before it is recorded), else null. */
  check(): Promise<string | null>;
  release(outcome?: { failed: boolean }): void;
}

export interface EnginePoolOptions {
  /** Once per engine before its first lease: the images it needs are made present there. A failure makes it unusable. */
  prepare?: (member: PoolMember, engine: ContainerEngine) => Promise<void>;
  /** How often every engine is asked while the pool is open. Default 5 s. */
  checkEveryMs?: number;
  onChange?: (states: EngineState[]) => void;
  /** How an engine is reached; the engine map's `container` unless a test gives its own. */
  connect?: (options: EngineOptions) => Promise<ContainerEngine>;
}

export interface EnginePool {
  readonly members: readonly PoolMember[];
  /** The engine images are built on and carried from: the first member. */
  readonly home: PoolMember;
  /** Waits for a place on the engine with the most free capacity; throws when no engine of the pool answers. */
  acquire(signal?: AbortSignal): Promise<EngineLease>;
  /** A connection to the named member (for reaping, listing, images). */
  engine(name: string): Promise<ContainerEngine>;
  states(): EngineState[];
  /** Stops the health checks; leases still held keep their engines. */
  close(): void;
}

/** A ping slower than this counts as a strike; three strikes in a row lose the engine (load alone never does at once). */
const PING_TIMEOUT_MS = 10_000;
const STRIKES_TO_LOSE = 3;
/** Errors that say the engine is gone, not slow: nothing listens at its address any more. */
const GONE = /ECONNREFUSED|ENOENT|ECONNRESET|EPIPE|EHOSTUNREACH|ENETUNREACH|socket hang up/;

interface Member extends EngineState {
  spec: PoolMember;
  connection: Promise<ContainerEngine> | null;
  prepared: Promise<void> | null;
  strikes: number;
  leases: Set<AbortController>;
}

interface Waiter {
  resolve(lease: EngineLease): void;
  reject(error: Error): void;
  signal?: AbortSignal;
}

/**
 * @example
 * const pool = openEnginePool([{ name: "a", options: { host: "unix:///var/run/docker.sock" }, capacity: 4 }]);
 * const lease = await pool.acquire();
 * try { await (await lease.engine.create(spec)).run(argv, options); } finally { lease.release(); }
 */
export function openEnginePool(members: readonly PoolMember[], options: EnginePoolOptions = {}): EnginePool {
  if (members.length === 0) throw new SandboxError("emptyPool", {});
  const connect = options.connect ?? ((engine: EngineOptions) => openSandboxEngine("container", { container: engine }));
  const pool: Member[] = members.map((spec) => ({
    spec,
    name: spec.name,
    address: engineAddress(spec.options),
    capacity: spec.capacity,
    running: 0,
    queued: 0,
    failed: 0,
    done: 0,
    health: "ok",
    problem: null,
    connection: null,
    prepared: null,
    strikes: 0,
    leases: new Set(),
  }));
  const waiters: Waiter[] = [];
  // `running` counts every place taken; reported, a place still waiting for its images is queued, not running.
  const states = (): EngineState[] =>
    pool.map(({ spec, connection, prepared, strikes, leases, ...state }) => ({
      ...state,
      running: state.running - state.queued,
    }));
  const changed = () => options.onChange?.(states());

  const connectionOf = (member: Member): Promise<ContainerEngine> => {
    if (member.connection) return member.connection;
    const connection = connect(member.spec.options);
    member.connection = connection;
    // A failed connection is tried again next time.
    connection.catch(() => {
      if (member.connection === connection) member.connection = null;
    });
    return connection;
  };

  const lose = (member: Member, problem: string) => {
    if (member.health !== "ok") return;
    member.health = "lost";
    member.problem = problem;
    const reason = new Error(`engine "${member.name}" lost: ${problem}`);
    for (const lease of member.leases) lease.abort(reason);
    changed();
    pump();
  };

  /** Asks one engine; returns the cause when it is (now) lost. */
  const check = async (member: Member): Promise<string | null> => {
    if (member.health === "unusable") return member.problem;
    try {
      await (await connectionOf(member)).ping(PING_TIMEOUT_MS);
      member.strikes = 0;
      if (member.health === "lost") {
        member.health = "ok";
        member.problem = null;
        changed();
        pump();
      }
      return null;
    } catch (error) {
      const reason = errorMessage(error);
      member.strikes += 1;
      if (GONE.test(reason) || member.strikes >= STRIKES_TO_LOSE) lose(member, reason);
      return member.health === "lost" ? `engine "${member.name}" lost: ${member.problem}` : null;
    }
  };

  const free = (member: Member) =>
    member.capacity === null ? Number.POSITIVE_INFINITY : member.capacity - member.running;

  const place = (waiter: Waiter, member: Member) => {
    const controller = new AbortController();
    member.running += 1;
    member.queued += 1;
    member.leases.add(controller);
    changed();
    let released = false;
    const release = (outcome?: { failed: boolean }) => {
      if (released) return;
      released = true;
      member.leases.delete(controller);
      member.running -= 1;
      if (outcome?.failed || controller.signal.aborted) member.failed += 1;
      else member.done += 1;
      changed();
      pump();
    };
    const ready = async () => {
      const engine = await connectionOf(member).catch((error: unknown) => {
        lose(member, errorMessage(error));
        throw error;
      });
      member.prepared ??= options.prepare ? options.prepare(member.spec, engine) : Promise.resolve();
      await member.prepared;
      return engine;
    };
    ready().then(
      (engine) => {
        member.queued -= 1;
        changed();
        waiter.resolve({
          name: member.name,
          options: member.spec.options,
          engine,
          lost: controller.signal,
          check: () => check(member),
          release,
        });
      },
      (error: unknown) => {
        member.queued -= 1;
        released = true;
        member.leases.delete(controller);
        member.running -= 1;
        // Its images could not be made present (or it could not be reached): no more work goes there this run.
        if (member.health === "ok") {
          member.health = "unusable";
          member.problem = errorMessage(error);
        }
        waiters.unshift(waiter);
        changed();
        pump();
      },
    );
  };

  const pump = () => {
    for (let index = 0; index < waiters.length; ) {
      const waiter = waiters[index]!;
      if (waiter.signal?.aborted) {
        waiters.splice(index, 1);
        waiter.reject(waiter.signal.reason as Error);
        continue;
      }
      index++;
    }
    while (waiters.length > 0) {
      const answering = pool.filter((member) => member.health === "ok");
      if (answering.length === 0) {
        const problems = pool.map((member) => `${member.name} (${member.health}: ${member.problem})`).join(", ");
        for (const waiter of waiters.splice(0))
          waiter.reject(new SandboxError("noEngineAnswers", { engines: problems }));
        return;
      }
      const best = answering.reduce((most, member) => (free(member) > free(most) ? member : most));
      if (free(best) <= 0) return;
      place(waiters.shift()!, best);
    }
  };

  const timer = setInterval(() => {
    for (const member of pool) void check(member);
  }, options.checkEveryMs ?? 5_000);
  // The checks never keep the runner alive on their own.
  timer.unref?.();

  return {
    members,
    home: members[0]!,
    acquire: (signal) =>
      new Promise<EngineLease>((resolve, reject) => {
        waiters.push({ resolve, reject, ...(signal ? { signal } : {}) });
        signal?.addEventListener("abort", pump, { once: true });
        pump();
      }),
    engine: (name) => {
      const member = pool.find((candidate) => candidate.name === name);
      if (!member) throw new SandboxError("unknownPoolEngine", { name, known: pool.map((known) => known.name) });
      return connectionOf(member);
    },
    states,
    close: () => clearInterval(timer),
  };
}
