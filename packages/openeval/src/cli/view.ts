// `openeval view`: serve the results viewer on 127.0.0.1 until interrupted.
import { serveViewer } from "../view/index.ts";
import { defineCommand } from "./commands.ts";
import { createViewLauncher } from "./view-launcher.ts";
import { EXIT, UsageError } from "./errors.ts";

export const viewCommand = defineCommand("view", {
  async run(flags) {
    const port = Number(flags.port);
    if (!Number.isInteger(port) || port < 0 || port > 65_535)
      throw new UsageError("valueInvalid", {
        flag: "port",
        takes: "a port number from 0 to 65535",
        got: String(flags.port),
      });
    const viewer = await serveViewer({
      benchmark: flags.benchmark as string,
      run: flags.run as string | undefined,
      port,
      readOnly: flags["read-only"] === true,
      launcher: createViewLauncher((flags.benchmark as string | undefined) ?? "."),
    }).catch((error: unknown) => {
      if ((error as { code?: string }).code === "EADDRINUSE") throw new UsageError("portInUse", { port });
      throw error;
    });
    const start = viewer.defaultRunId ? `${viewer.url}#/runs/${encodeURIComponent(viewer.defaultRunId)}` : viewer.url;
    console.log(`openeval viewer: ${start}`);
    console.log(
      viewer.defaultRunId
        ? "Press Ctrl+C to stop."
        : "No runs yet under this benchmark's results/; start one with `npx openeval run`. Press Ctrl+C to stop.",
    );
    await new Promise<void>((resolve) => {
      for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => resolve());
    });
    await viewer.stop();
    return EXIT.pass;
  },
});
