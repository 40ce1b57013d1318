// The viewer's entry: picks the data source (the server's API, or a static export's data files) and routes the
// URL hash to a page.
import { createRoot } from "react-dom/client";
import { createApi } from "./api.ts";
import { App } from "./app.tsx";
import { ApiContext } from "./hooks.tsx";
import "./styles.css";

declare global {
  interface Window {
    /** `token`: what a request that changes results must carry; absent read-only and in a static export. */
    OPENEVAL_VIEWER?: { mode: "server" | "static"; token?: string; canRun?: boolean };
  }
}

const mode = window.OPENEVAL_VIEWER?.mode ?? (window.location.protocol === "file:" ? "static" : "server");
createRoot(document.getElementById("root")!).render(
  <ApiContext.Provider
    value={createApi(mode, window.OPENEVAL_VIEWER?.token ?? null, window.OPENEVAL_VIEWER?.canRun === true)}
  >
    <App />
  </ApiContext.Provider>,
);
