import { describe, expect, it } from "vitest";
import { connectEngine, engineAddress } from "./engine.ts";

const HARNESS = new URL("../../index.ts", import.meta.url).pathname;
const ENGINE = new URL("./engine.ts", import.meta.url).pathname;

/** Whether a fresh Bun process has loaded dockerode once `script` has run. */
function loadsDockerode(script: string): boolean {
  const probe = `${script}\nconsole.log(Object.keys(require.cache).some((path) => path.includes("/node_modules/dockerode/")));`;
  const result = Bun.spawnSync([process.execPath, "-e", probe], { stdout: "pipe", stderr: "pipe" });
  if (result.exitCode !== 0) throw new Error(result.stderr.toString());
  return result.stdout.toString().trim() === "true";
}

describe("the container engine", () => {
  it("loads its client (dockerode: ~18 MB of a runner's resident memory) when an engine is connected, not when the harness is imported", () => {
    expect(loadsDockerode(`await import(${JSON.stringify(HARNESS)});`)).toBe(false);
    const connect = `const { connectEngine } = await import(${JSON.stringify(ENGINE)});\nawait connectEngine({ socketPath: "/nonexistent/openeval-engine.sock" }).catch(() => {});`;
    expect(loadsDockerode(connect)).toBe(true);
  });

  it("is looked for at socketPath, else DOCKER_HOST, else the engine's default socket", () => {
    expect(engineAddress({ socketPath: "/run/engine.sock", env: { DOCKER_HOST: "tcp://engine:2375" } })).toBe(
      "unix:///run/engine.sock",
    );
    expect(engineAddress({ env: { DOCKER_HOST: "tcp://engine:2375" } })).toBe("tcp://engine:2375");
    expect(engineAddress({ host: "ssh://user@engine", env: {} })).toBe("ssh://user@engine");
    expect(engineAddress({ engine: "podman", env: {} })).toBe("unix:///run/podman/podman.sock");
    expect(engineAddress({ env: {} })).toBe("unix:///var/run/docker.sock");
  });

  // Both are refused before any request leaves this machine: nothing dials the addresses below.
  it("refuses DOCKER_HOST on plain TCP to another machine, saying how to reach it safely", async () => {
    const refused = await connectEngine({ env: { DOCKER_HOST: "tcp://10.250.0.9:2375" } }).catch((error) => error);
    expect(refused).toMatchObject({ code: "OE_ENGINE_INSECURE" });
    expect(refused.message).toContain(
      "The container engine at tcp://10.250.0.9:2375 is plain TCP on an address other than loopback",
    );
    expect(refused.message).toContain("DOCKER_TLS_VERIFY=1 and DOCKER_CERT_PATH");
  });

  it("reads an engine's TLS files from its certificate folder, and names the folder when they are missing", async () => {
    const refused = await connectEngine({
      host: "tcp://10.250.0.9:2376",
      tls: { certPath: "/nonexistent/certs" },
      env: {},
    }).catch((error) => error);
    expect(refused).toMatchObject({ code: "OE_ENGINE_TLS" });
    expect(refused.message).toMatch(
      /^The TLS files of a container engine could not be read in \/nonexistent\/certs \(.*ENOENT.*\): it needs ca\.pem, cert\.pem and key\.pem there/,
    );
    const fromEnvironment = await connectEngine({
      env: { DOCKER_HOST: "tcp://10.250.0.9:2376", DOCKER_TLS_VERIFY: "1", DOCKER_CERT_PATH: "/nonexistent/env-certs" },
    }).catch((error) => error);
    expect(fromEnvironment.message).toContain("/nonexistent/env-certs");
  });
});
