// A control's rate limit (`rateLimit` in its control file): requests of one control in flight are counted across
// its sessions and evals, as a provider counts an account's, and those beyond the limit are pushed back at once.
import { rateLimitResponse } from "./http-error.ts";
import type { ControlFile } from "./schema.ts";

export interface RateLimits {
  /** A request of control `name`: admitted (release it once answered), or the rate limit's answer. */
  admit(name: string, control: ControlFile): { release(): void } | Response;
}

export function createRateLimits(): RateLimits {
  const inFlight = new Map<string, number>();
  const admitted = { release: () => {} };
  return {
    admit: (name, control) => {
      const limit = control.rateLimit;
      if (!limit) return admitted;
      const running = inFlight.get(name) ?? 0;
      if (running >= limit.concurrent) {
        const status = limit.status ?? 429;
        const message =
          limit.message ??
          (status === 429
            ? `Rate limit reached: more than ${limit.concurrent} concurrent requests to ${name}`
            : `Service unavailable: ${name} is overloaded by more than ${limit.concurrent} concurrent requests`);
        return rateLimitResponse(status, message, limit.retryAfter);
      }
      inFlight.set(name, running + 1);
      let released = false;
      return {
        release: () => {
          if (released) return;
          released = true;
          inFlight.set(name, (inFlight.get(name) ?? 1) - 1);
        },
      };
    },
  };
}
