// The frame around every page: the top bar with breadcrumbs and the live indicator, and the page for the route.
import { useContext, useEffect, type ReactNode } from "react";
import { LiveContext, LiveProvider, useApi, useLocation } from "./hooks.tsx";
import { EvalRunPage } from "./pages/eval-run-page.tsx";
import { JudgeRunPage } from "./pages/judge-run-page.tsx";
import { LaunchPage } from "./pages/launch-page.tsx";
import { RunPage } from "./pages/run-page.tsx";
import { RunsPage } from "./pages/runs-page.tsx";
import { SideBySidePage } from "./pages/side-by-side-page.tsx";
import { href, type Route } from "./route.ts";
import { shortId } from "./format.ts";

export function App() {
  const location = useLocation();
  const { route } = location;
  // Braces matter: window.scrollTo returns a promise in recent Chromium, and an effect may return only a cleanup.
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [route.page, "run" in route ? route.run : ""]);
  const page =
    route.page === "runs" ? (
      <RunsPage />
    ) : route.page === "launch" ? (
      <LaunchPage location={location} />
    ) : route.page === "run" ? (
      <RunPage run={route.run} location={location} />
    ) : route.page === "eval-run" ? (
      <EvalRunPage run={route.run} evalRun={route.evalRun} location={location} />
    ) : route.page === "judge-run" ? (
      <JudgeRunPage run={route.run} judgeRun={route.judgeRun} location={location} />
    ) : route.page === "side-by-side" ? (
      <SideBySidePage run={route.run} location={location} />
    ) : (
      <div className="empty">
        No page at <code>{route.path}</code>. <a href="#/">Back to the runs</a>
      </div>
    );
  const content = (
    <>
      <TopBar route={route} />
      <main className="page">{page}</main>
    </>
  );
  return "run" in route ? <LiveProvider run={route.run}>{content}</LiveProvider> : content;
}

function TopBar({ route }: { route: Route }) {
  const api = useApi();
  const crumbs: ReactNode[] = [
    <a key="runs" href={href({ page: "runs" })}>
      Runs
    </a>,
  ];
  if ("run" in route) {
    crumbs.push(
      <a key="run" href={href({ page: "run", run: route.run })} title={route.run}>
        {route.run}
      </a>,
    );
  }
  if (route.page === "launch") crumbs.push(<span key="launch">Run</span>);
  if (route.page === "eval-run") crumbs.push(<span key="eval">Eval run {shortId(route.evalRun)}</span>);
  if (route.page === "judge-run") crumbs.push(<span key="judge">Judge run {shortId(route.judgeRun)}</span>);
  if (route.page === "side-by-side") crumbs.push(<span key="side">Side by side</span>);
  return (
    <header className="top-bar">
      <a className="brand" href={href({ page: "runs" })}>
        <span className="brand-mark">◆</span> openeval
      </a>
      <nav className="crumbs">
        {crumbs.map((crumb, index) => (
          <span key={index} className="crumb">
            {crumb}
          </span>
        ))}
      </nav>
      <div className="top-bar-end">
        {"run" in route ? <LiveIndicator /> : null}
        {api.mode === "static" ? <span className="badge tone-muted">static export</span> : null}
      </div>
    </header>
  );
}

function LiveIndicator() {
  const { live } = useContext(LiveContext);
  return live ? (
    <span className="live" title="A runner is writing to this run: pages update as results arrive">
      <span className="live-dot" /> live
    </span>
  ) : null;
}
