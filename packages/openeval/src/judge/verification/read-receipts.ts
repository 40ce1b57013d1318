// The receipts a grading's verification runs kept (`<directory>/<id>/receipt.json`), for callers that return them
// (judgeEvidence). A folder without a valid receipt is a run that did not finish keeping one: it is skipped.
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { RECEIPT_FILE } from "./run-verification.ts";
import { VerificationReceiptSchema, type VerificationReceipt } from "../../recording/index.ts";

export async function readVerificationReceipts(directory: string): Promise<(VerificationReceipt & { id: string })[]> {
  if (!existsSync(directory)) return [];
  const receipts: (VerificationReceipt & { id: string })[] = [];
  for (const id of (await readdir(directory)).sort()) {
    const file = join(directory, id, RECEIPT_FILE);
    if (!existsSync(file)) continue;
    const parsed = VerificationReceiptSchema.safeParse(JSON.parse(await readFile(file, "utf8")));
    if (parsed.success) receipts.push({ id, ...parsed.data });
  }
  return receipts;
}
