// Sandboxed verification: the verification image (build, find), runs of argv commands over a recorded
// workspace in a locked-down container, their artifacts, and the cleanup of leftover containers.
export {
  buildVerificationImage,
  resolveVerificationImage,
  IMAGE_REPOSITORY,
  VERIFICATION_IMAGE,
  type BuildImageOptions,
  type BuildProgress,
  type ImageOptions,
  type ResolveImageOptions,
  type VerificationImage,
} from "./build-image.ts";
export { runVerification, RECEIPT_FILE, type RunVerificationOptions } from "./run-verification.ts";
export { readVerificationArtifact } from "./artifacts.ts";
export { readVerificationReceipts } from "./read-receipts.ts";
export { reapVerificationContainers } from "./verification-sandbox.ts";
export { createVerificationApi, DEFAULT_VERIFICATION_LIMITS, type VerificationApiOptions } from "./verification-api.ts";
export { VerificationError } from "./errors.ts";
export type { SnapshotReader } from "./snapshot-archive.ts";
