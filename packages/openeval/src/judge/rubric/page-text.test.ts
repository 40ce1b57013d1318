// Pages of evidence text: bounded in bytes and lines, never splitting a character, always moving forward.
import { describe, expect, it } from "vitest";
import { PAGE_MAX_BYTES, PAGE_MAX_LINES, pageText } from "./page-text.ts";

function allPages(text: string, limit?: number): string[] {
  const pages: string[] = [];
  for (let offset: number | null = 0; offset !== null; ) {
    const page = pageText(text, offset, limit);
    pages.push(page.text);
    offset = page.next;
  }
  return pages;
}

describe("pageText", () => {
  it("caps lines on short-line text and bytes on multi-byte text, and the pages join back to the text", () => {
    const lines = "x\n".repeat(PAGE_MAX_LINES * 3);
    const linePages = allPages(lines);
    expect(linePages.every((page) => page.split("\n").length <= PAGE_MAX_LINES)).toBe(true);
    expect(linePages.join("")).toBe(lines);

    const wide = "é漢😀".repeat(10_000);
    const widePages = allPages(wide);
    expect(widePages.length).toBeGreaterThan(1);
    expect(widePages.every((page) => new TextEncoder().encode(page).byteLength <= PAGE_MAX_BYTES)).toBe(true);
    expect(widePages.every((page) => !/[\ud800-\udbff]$/.test(page))).toBe(true);
    expect(widePages.join("")).toBe(wide);
  });

  it("honours a caller's limit, even one smaller than a surrogate pair", () => {
    expect(pageText("abcdef", 2, 3)).toEqual({ text: "cde", start: 2, end: 5, total: 6, next: 5 });
    expect(allPages("😀😀", 1)).toEqual(["😀", "😀"]);
    expect(pageText("abc", 10)).toEqual({ text: "", start: 3, end: 3, total: 3, next: null });
  });
});
