// Saving a picture of the page as a file, made in the browser (no server needed, so an export opened from file:// can
// too): the SVG as a standalone document, or drawn onto a canvas and encoded as PNG. The SVG must style itself with
// attributes: the page's stylesheet does not go with it.

const SVG_NS = "http://www.w3.org/2000/svg";

export interface StandaloneSvg {
  text: string;
  /** Its natural size (its viewBox). */
  width: number;
  height: number;
}

/** The SVG as a file of its own: its namespace, its natural size, nothing the page's layout set on it. */
export function standaloneSvg(svg: SVGSVGElement): StandaloneSvg {
  const { width, height } = svg.viewBox.baseVal;
  const copy = svg.cloneNode(true) as SVGSVGElement;
  copy.setAttribute("xmlns", SVG_NS);
  copy.setAttribute("width", String(width));
  copy.setAttribute("height", String(height));
  copy.removeAttribute("style");
  copy.removeAttribute("class");
  return {
    text: `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(copy)}\n`,
    width,
    height,
  };
}

/** The SVG drawn at `scale` × its size on a white canvas, as PNG. */
export async function renderPng(svg: StandaloneSvg, scale = 2): Promise<Blob> {
  const image = new Image();
  // A data: URL rather than a blob: one, so that the canvas stays readable from file:// too.
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg.text)}`;
  await image.decode();
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(svg.width * scale);
  canvas.height = Math.round(svg.height * scale);
  const context = canvas.getContext("2d");
  if (!context) throw new Error("This browser cannot draw on a canvas here: download the SVG instead.");
  context.fillStyle = "#ffffff";
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.scale(scale, scale);
  context.drawImage(image, 0, 0, svg.width, svg.height);
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (blob) =>
        blob ? resolve(blob) : reject(new Error("The browser made no PNG of the scorecard: download the SVG instead.")),
      "image/png",
    ),
  );
}

/** Offers `blob` as a download named `fileName`. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started by now; the URL is freed later, never while the browser may still read it.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export function svgBlob(svg: StandaloneSvg): Blob {
  return new Blob([svg.text], { type: "image/svg+xml" });
}
