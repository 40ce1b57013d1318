// The run page's buttons that change something, on a viewer that can start runs: run this run again (the launch page,
// resuming it) and, while a runner works on it, Stop — which stops a run this viewer started as SIGTERM stops
// `openeval run` (running work recorded interrupted); a run started elsewhere is refused, saying where to stop it.
import { useState } from "react";
import { useApi } from "../hooks.tsx";
import { href } from "../route.ts";

export function RunControls({ run, live }: { run: string; live: boolean }) {
  const api = useApi();
  const [state, setState] = useState<{ busy: boolean; message: string | null }>({ busy: false, message: null });
  if (!api.canRun) return null;
  const stop = async () => {
    setState({ busy: true, message: null });
    try {
      const stopped = await api.stopRun(run);
      setState({ busy: false, message: `Stopped (openeval run exited with ${stopped.exitCode ?? "no code"}).` });
    } catch (error) {
      setState({ busy: false, message: (error as Error).message });
    }
  };
  return (
    <div className="run-controls">
      <a className="button small" href={href({ page: "launch" }, { run })} data-testid="resume-run">
        Run again…
      </a>
      {live ? (
        <button className="button small" type="button" disabled={state.busy} onClick={() => void stop()}>
          {state.busy ? "Stopping…" : "Stop"}
        </button>
      ) : null}
      {state.message ? (
        <span className="muted small" data-testid="stop-message">
          {state.message}
        </span>
      ) : null}
    </div>
  );
}
