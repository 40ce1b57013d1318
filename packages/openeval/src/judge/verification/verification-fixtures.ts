// Test fixtures for verification: whether an engine answers (tests skip with a message saying how to get one),
// the verification image, and constructed recordings to verify.
import { makeTempDir } from "../../../../../test/helpers/fixtures.ts";
import { openEvidence, recordEvidence, type Evidence } from "../../recording/index.ts";
import { buildVerificationImage, type VerificationImage } from "./build-image.ts";
import { engineAddress as addressOf, isEngineReachable } from "../../sandbox/index.ts";

export const engineAddress = addressOf();
export const engineReachable = await isEngineReachable();

/** The describe title of engine tests: says plainly when and why they are skipped. */
export function engineSuite(title: string): string {
  if (engineReachable) return title;
  const message = `SKIPPED: no container engine answers at ${engineAddress}; start one with \`sudo bash .ci/setup-container-engine.sh\` (or set DOCKER_HOST)`;
  console.warn(`[verification tests] ${title}: ${message}`);
  return `${title} — ${message}`;
}

/** A temporary folder removed after the test file (the project's shared test helper). */
export function makeTempDirectory(prefix = "openeval-verification-"): Promise<string> {
  return makeTempDir(prefix);
}

let image: Promise<VerificationImage> | undefined;

/** Builds the image once per test process (a no-op when an image of the same folder hash exists). */
export function verificationImage(): Promise<VerificationImage> {
  return (image ??= buildVerificationImage({ onProgress: (event) => event.kind === "phase" && console.error(`[verification image] ${event.message}`) }));
}

export async function constructedEvidence(workspace: { initial?: Record<string, string>; final?: Record<string, string> }): Promise<Evidence> {
  const directory = await makeTempDirectory("openeval-verification-evidence-");
  const ref = await recordEvidence({ directory, prompt: "Verify this.", response: "Done.", workspace });
  return openEvidence(ref.directory, ref.hash);
}
