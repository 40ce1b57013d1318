// Live updates: a Server-Sent Events stream per open page. The server looks at the run's store every second
// (a stat, then a re-read only if its files changed) and tells the page when what it shows changed; the page
// refetches what it has on screen. A comment every few seconds keeps idle connections open.
import type { ViewerData } from "./viewer-data.ts";

const CHECK_EVERY_MS = 1_000;
const PING_EVERY_MS = 5_000;

export function streamLiveUpdates(data: ViewerData, runId: string, signal: AbortSignal): Response {
  const encoder = new TextEncoder();
  let timer: ReturnType<typeof setInterval> | undefined;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      let last = "";
      let lastSent = 0;
      const send = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text));
          lastSent = Date.now();
        } catch {
          stop();
        }
      };
      let checking = false;
      const check = async () => {
        if (checking) return;
        checking = true;
        const message = await data
          .liveState(runId)
          .catch(() => null)
          .finally(() => (checking = false));
        if (!message) return stop();
        const text = JSON.stringify(message);
        if (text !== last) {
          last = text;
          send(`data: ${text}\n\n`);
        } else if (Date.now() - lastSent >= PING_EVERY_MS) {
          send(": ping\n\n");
        }
      };
      const stop = () => {
        clearInterval(timer);
        try {
          controller.close();
        } catch {
          // Already closed by the client.
        }
      };
      send("retry: 2000\n\n");
      void check();
      timer = setInterval(() => void check(), CHECK_EVERY_MS);
      signal.addEventListener("abort", stop, { once: true });
    },
    cancel() {
      clearInterval(timer);
    },
  });
  return new Response(stream, {
    headers: { "content-type": "text/event-stream", "cache-control": "no-store", connection: "keep-alive" },
  });
}
