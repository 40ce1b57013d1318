// Each provider's share of the candidate lanes, set by what the provider answers (additive increase, multiplicative
// decrease, as TCP paces a connection): a 429 or 503 halves it (rounded up), and no new candidate of that provider starts until
// OpenCode has sent the pushed-back requests again (OpenCode waits the answer's `retry-after` first, so none starts
// before it); then answers raise it by one per `limit` answers, back to the run's concurrency. Providers are
// independent: one pushing back never holds another's candidates. Design: docs/guide/running.md#provider-back-off.
import { parseModelRef, type ProviderPressure, type ProviderSignal } from "../opencode/index.ts";
import type { ProviderBackoff } from "../summary/index.ts";
import type { CandidateAdmission } from "./work-queue.ts";

export interface ProviderLimiterOptions {
  /** The run's concurrency: every provider's full share, and where it starts. */
  max: number;
  /** Each change of a provider's share, as it happens. */
  onChange?: (change: ProviderBackoff) => void;
  /** Epoch ms; tests set the clock. */
  now?: () => number;
}

export interface ProviderLimiter {
  /** Whether one more candidate of this provider may start now: below its share, and not waiting for a retry. */
  admits(provider: string): boolean;
  started(provider: string): void;
  finished(provider: string): void;
  /** How many of this provider's candidates may run at once now. */
  limitOf(provider: string): number;
  /** Follows one candidate's sessions (of `provider` unless a log line names another); `end()` lets go of them. */
  watch(provider: string): ProviderWatch;
  /** Called when a provider may admit more without any candidate finishing; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
}

export interface ProviderWatch {
  observe(signal: ProviderSignal): void;
  /** The candidate ended: its requests will not be retried, so they hold nothing any more. */
  end(): void;
}

interface ProviderState {
  limit: number;
  running: number;
  /** Answers counted towards the next raise. */
  answers: number;
  /** Sessions whose last request was pushed back and not yet sent again. */
  held: Set<string>;
  /** When the current hold began (epoch ms). */
  heldSince: number;
}

/**
 * @example
 * const limiter = createProviderLimiter({ max: 4, onChange: (change) => console.error(change) });
 * limiter.watch("local").observe({ kind: "failed", provider: "local", sessionID: "ses_1", pressure: "rate_limited", message: "Too Many Requests" });
 * limiter.limitOf("local"); // 2, and limiter.admits("local") is false until ses_1 sends its retry
 */
export function createProviderLimiter(options: ProviderLimiterOptions): ProviderLimiter {
  const max = Math.max(1, options.max);
  const now = options.now ?? Date.now;
  const providers = new Map<string, ProviderState>();
  const listeners = new Set<() => void>();
  const stateOf = (provider: string): ProviderState => {
    let state = providers.get(provider);
    if (!state)
      providers.set(provider, (state = { limit: max, running: 0, answers: 0, held: new Set(), heldSince: 0 }));
    return state;
  };
  const report = (provider: string, change: ProviderBackoff["change"], extra: Partial<ProviderBackoff> = {}) =>
    options.onChange?.({
      provider,
      change,
      limit: stateOf(provider).limit,
      max,
      reason: null,
      message: null,
      retryAfterMs: null,
      ...extra,
    });
  const widen = () => {
    for (const listener of listeners) listener();
  };

  /** A 429/503: the first of a hold halves the share, unless candidates started under a higher one still run. */
  const pushBack = (provider: string, sessionID: string, reason: ProviderPressure, message: string) => {
    const state = stateOf(provider);
    const holding = state.held.size > 0;
    state.held.add(sessionID);
    if (holding) return;
    state.heldSince = now();
    state.answers = 0;
    // Rounded up: a share of 3 that one request too many overloaded keeps 2, not 1.
    const lowered = Math.ceil(state.limit / 2);
    const lowers = state.running <= state.limit && lowered < state.limit;
    if (lowers) state.limit = lowered;
    report(provider, lowers ? "lowered" : "held", { reason, message });
  };
  /** A pushed-back session sent its request again, or ended: the last one lets new candidates start. */
  const release = (provider: string, sessionID: string) => {
    const state = stateOf(provider);
    if (!state.held.delete(sessionID) || state.held.size > 0) return;
    report(provider, "resumed", { retryAfterMs: now() - state.heldSince });
    widen();
  };
  /** Answers at the current share (not of candidates started under a higher one) raise it by one per `limit`. */
  const answer = (provider: string) => {
    const state = stateOf(provider);
    if (state.held.size > 0 || state.limit >= max || state.running > state.limit) return;
    state.answers += 1;
    if (state.answers < state.limit) return;
    state.answers = 0;
    state.limit += 1;
    report(provider, state.limit === max ? "recovered" : "raised");
    widen();
  };

  return {
    admits: (provider) => {
      const state = stateOf(provider);
      return state.held.size === 0 && state.running < state.limit;
    },
    started: (provider) => {
      stateOf(provider).running += 1;
    },
    finished: (provider) => {
      stateOf(provider).running -= 1;
    },
    limitOf: (provider) => stateOf(provider).limit,
    watch: (candidateProvider) => {
      /** Each session this candidate's log named, with its provider. */
      const sessions = new Map<string, string>();
      const providerOf = (signal: ProviderSignal): string => {
        const named = signal.kind === "answered" ? null : signal.provider;
        const provider = named ?? (signal.sessionID ? sessions.get(signal.sessionID) : undefined) ?? candidateProvider;
        if (signal.sessionID && !sessions.has(signal.sessionID)) sessions.set(signal.sessionID, provider);
        return provider;
      };
      return {
        observe: (signal) => {
          const provider = providerOf(signal);
          if (signal.kind === "answered") answer(provider);
          else if (signal.kind === "sent") release(provider, signal.sessionID);
          else if (signal.pressure !== null) pushBack(provider, signal.sessionID, signal.pressure, signal.message);
        },
        end: () => {
          for (const [sessionID, provider] of sessions) release(provider, sessionID);
        },
      };
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * The limiter as the work queue's admission of candidates: the candidates of each model's provider are one group, so
 * that a provider waiting for a retry never holds up another's.
 */
export function admitCandidates<Item extends { slot: { model: string } }>(
  limiter: ProviderLimiter,
): CandidateAdmission<Item> {
  const providerOf = (item: Item) => parseModelRef(item.slot.model).provider;
  return {
    groupOf: providerOf,
    admits: (item) => limiter.admits(providerOf(item)),
    started: (item) => limiter.started(providerOf(item)),
    finished: (item) => limiter.finished(providerOf(item)),
    subscribe: (listener) => limiter.subscribe(listener),
  };
}
