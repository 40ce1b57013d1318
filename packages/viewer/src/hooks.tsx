// Shared state: the data source, the URL, the run's live version, and loading data with them.
import { createContext, useContext, useEffect, useRef, useState, type DependencyList, type ReactNode } from "react";
import type { ViewerApi } from "./api.ts";
import { parseHash, type Location } from "./route.ts";

export const ApiContext = createContext<ViewerApi | null>(null);

export function useApi(): ViewerApi {
  const api = useContext(ApiContext);
  if (!api) throw new Error("ApiContext is missing");
  return api;
}

export function useLocation(): Location {
  const [location, setLocation] = useState(() => parseHash(window.location.hash));
  useEffect(() => {
    const update = () => setLocation(parseHash(window.location.hash));
    window.addEventListener("hashchange", update);
    return () => window.removeEventListener("hashchange", update);
  }, []);
  return location;
}

/** The run's content version: it changes when the store does (live runs), and pages refetch on it. */
export const LiveContext = createContext<{ version: string; live: boolean }>({ version: "", live: false });

export function LiveProvider({ run, children }: { run: string; children: ReactNode }) {
  const api = useApi();
  const [state, setState] = useState({ version: "", live: false });
  useEffect(() => api.subscribe(run, (message) => setState(message)), [api, run]);
  return <LiveContext.Provider value={state}>{children}</LiveContext.Provider>;
}

export function useLiveVersion(): string {
  return useContext(LiveContext).version;
}

export type Loaded<T> =
  | { status: "loading"; data: T | null }
  | { status: "ready"; data: T }
  | { status: "error"; error: Error; data: T | null };

/**
 * Loads data for `deps`, again whenever `refresh` changes (a live update). While a refresh loads, the previous data
 * of the same deps stays on screen, so live pages do not flash; new deps start empty.
 */
export function useLoad<T>(load: () => Promise<T>, deps: DependencyList, refresh = ""): Loaded<T> {
  const [state, setState] = useState<Loaded<T>>({ status: "loading", data: null });
  const last = useRef<{ key: string; data: T } | null>(null);
  const key = JSON.stringify(deps);
  useEffect(() => {
    let cancelled = false;
    const previous = last.current?.key === key ? last.current.data : null;
    setState({ status: "loading", data: previous });
    load().then(
      (data) => {
        if (cancelled) return;
        last.current = { key, data };
        setState({ status: "ready", data });
      },
      (error: unknown) => {
        if (!cancelled) setState({ status: "error", error: toError(error), data: previous });
      },
    );
    return () => {
      cancelled = true;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, refresh]);
  return state;
}

/** A rejection's reason as an Error, whatever was thrown. */
export function toError(reason: unknown): Error {
  return reason instanceof Error ? reason : new Error(String(reason));
}
