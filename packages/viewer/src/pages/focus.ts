// Landing on a cited item: scroll it to the middle of the screen once it is rendered, and flash it.

export function scrollToFocus(id: string, attempts = 20): void {
  const selector = `[data-id="${CSS.escape(id)}"], [data-call-id="${CSS.escape(id)}"]`;
  const element = document.querySelector<HTMLElement>(selector);
  if (!element) {
    // Rendering may trail the data by a frame or two.
    if (attempts > 0) requestAnimationFrame(() => scrollToFocus(id, attempts - 1));
    return;
  }
  if (element instanceof HTMLDetailsElement) element.open = true;
  element.scrollIntoView({ block: "center" });
  element.classList.add("focused", "flash");
  window.setTimeout(() => element.classList.remove("flash"), 2_000);
}
