// A review is a file and a sealed row: an edited, deleted or hand-added file is reported and not used, the row can be
// neither changed nor deleted, and a kill between the two writes leaves no review or a whole one.
import { Database } from "bun:sqlite";
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../../../test/helpers/fixtures.ts";
import { REVIEW_FORMAT, type Review } from "./review-schema.ts";
import { readReviews, recordReview, REVIEW_RECORDED_EVENT, reviewFile } from "./reviews.ts";
import { ResultsStore, STORE_FILE } from "./store.ts";

function review(overrides: Partial<Review> = {}): Review {
  return {
    format: REVIEW_FORMAT,
    id: "review_1",
    runId: "r",
    evalRunId: "eval_1",
    slot: { evalId: "e", model: "p/m", variant: "current", repetition: 1 },
    criterion: "correct",
    score: 1,
    reason: "The answer is right",
    reviewer: { name: "Ada", email: "ada@example.com" },
    at: "2026-12-01T10:00:00.000Z",
    supersedes: { judgeRunId: "judge_1", value: 0 },
    ...overrides,
  };
}

async function openStore(): Promise<ResultsStore> {
  return ResultsStore.open(join(await makeTempDir(), "run"), { create: true });
}

describe("a recorded review", () => {
  it("is read back as recorded, in order, and announced by an event", async () => {
    const store = await openStore();
    recordReview(store, review());
    recordReview(store, review({ id: "review_2", score: null, reason: "Cannot tell" }));
    expect(readReviews(store)).toEqual({
      reviews: [review(), review({ id: "review_2", score: null, reason: "Cannot tell" })],
      problems: [],
    });
    expect(JSON.parse(readFileSync(join(store.directory, reviewFile("review_1")), "utf8"))).toEqual(review());
    expect(store.eventsOf([REVIEW_RECORDED_EVENT]).map((event) => event.value)).toEqual([
      { id: "review_1", evalRunId: "eval_1", criterion: "correct" },
      { id: "review_2", evalRunId: "eval_1", criterion: "correct" },
    ]);
    store.close();
  });

  it("whose file was edited, deleted or added by hand is reported, naming the file, and not used", async () => {
    const store = await openStore();
    recordReview(store, review());
    recordReview(store, review({ id: "review_2" }));
    const edited = join(store.directory, reviewFile("review_1"));
    writeFileSync(edited, readFileSync(edited, "utf8").replace('"score": 1', '"score": 0'));
    rmSync(join(store.directory, reviewFile("review_2")));
    writeFileSync(join(store.directory, reviewFile("review_3")), JSON.stringify(review({ id: "review_3" })));
    const { reviews, problems } = readReviews(store);
    expect(reviews).toEqual([]);
    expect(problems.map((problem) => [problem.kind, problem.id, problem.message])).toEqual([
      [
        "review",
        "review_1",
        "review review_1: reviews/review_1.json was changed after it was recorded (sha256 differs from the store's); its score is not used (restore the file, or record a new review with `openeval review`)",
      ],
      [
        "review",
        "review_2",
        "review review_2: reviews/review_2.json was deleted; its score is not used (restore the file, or record the review again)",
      ],
      [
        "review",
        "review_3",
        "reviews/review_3.json is not recorded in the run's store: it was added by hand, and is not used (record a review with `openeval review`)",
      ],
    ]);
    store.close();
  });

  it("cannot be changed or deleted in the store; with the triggers dropped, a changed row is reported", async () => {
    const store = await openStore();
    recordReview(store, review());
    store.close();
    const db = new Database(join(store.directory, STORE_FILE));
    expect(() => db.run("UPDATE reviews SET value = '{}'")).toThrow("reviews are never changed");
    expect(() => db.run("DELETE FROM reviews")).toThrow("reviews are never deleted");
    db.run("DROP TRIGGER reviews_never_changed");
    db.run("UPDATE reviews SET value = replace(value, '\"score\": 1', '\"score\": 0')");
    db.close();
    const reopened = ResultsStore.open(store.directory, { readonly: true });
    expect(readReviews(reopened).problems.map((problem) => problem.message)).toEqual([
      "review review_1: its row in the store was changed after it was recorded (its sha256 does not match)",
      "the store's triggers that keep reviews append-only were removed: a review row may have been changed",
    ]);
    reopened.close();
  });

  it("killed between its writes is either not recorded or whole", async () => {
    const store = await openStore();
    recordReview(store, review());
    const file = join(store.directory, reviewFile("review_1"));
    // Killed after the row, before the rename: the pending file is the review, and the next review finishes it.
    renameSync(file, `${file}.pending`);
    expect(readReviews(store)).toEqual({ reviews: [review()], problems: [] });
    // Killed before the row: a pending file alone was never recorded, and is not a review.
    writeFileSync(
      join(store.directory, "reviews", "review_9.json.pending"),
      JSON.stringify(review({ id: "review_9" })),
    );
    recordReview(store, review({ id: "review_2" }));
    expect(readReviews(store)).toEqual({ reviews: [review(), review({ id: "review_2" })], problems: [] });
    expect(readFileSync(file, "utf8")).toContain('"id": "review_1"');
    store.close();
  });

  it("is none in a store that never had one, read-only too", async () => {
    const store = await openStore();
    store.close();
    const readonly = ResultsStore.open(store.directory, { readonly: true });
    expect(readReviews(readonly)).toEqual({ reviews: [], problems: [] });
    readonly.close();
  });
});
