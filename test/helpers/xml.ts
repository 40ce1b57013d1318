// A strict parser for the XML the reports write (JUnit): elements, attributes, text and the five entities; no DTDs,
// comments or CDATA. It throws on anything malformed — an unclosed or mismatched tag, a raw `<` or `&` — so a test that
// reads a report through it also checks the report is well-formed.

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

export function parseXml(source: string): XmlElement {
  const body = source.replace(/^<\?xml[^?]*\?>\s*/, "");
  const root: XmlElement = { name: "#document", attributes: {}, children: [], text: "" };
  const open: XmlElement[] = [root];
  const tag = /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[\w.:-]+="[^"<]*")*)\s*(\/?)>/y;
  let at = 0;
  while (at < body.length) {
    const next = body.indexOf("<", at);
    const text = body.slice(at, next === -1 ? body.length : next);
    open.at(-1)!.text += decode(text);
    if (next === -1) break;
    tag.lastIndex = next;
    const match = tag.exec(body);
    if (!match) throw new Error(`malformed XML at offset ${next}: ${body.slice(next, next + 40)}`);
    const [whole, closing, name, attributeText, selfClosing] = match as unknown as [
      string,
      string,
      string,
      string,
      string,
    ];
    if (closing) {
      const element = open.pop();
      if (element?.name !== name || open.length === 0)
        throw new Error(`</${name}> closes <${element?.name}> at offset ${next}`);
    } else {
      const attributes = Object.fromEntries(
        [...attributeText.matchAll(/([\w.:-]+)="([^"]*)"/g)].map(([, key, value]) => [key!, decode(value!)]),
      );
      const element: XmlElement = { name, attributes, children: [], text: "" };
      open.at(-1)!.children.push(element);
      if (!selfClosing) open.push(element);
    }
    at = next + whole.length;
  }
  if (open.length !== 1) throw new Error(`<${open.at(-1)!.name}> is never closed`);
  if (root.children.length !== 1 || root.text.trim() !== "")
    throw new Error("an XML document has exactly one root element and no text beside it");
  return root.children[0]!;
}

function decode(text: string): string {
  return text.replace(/&([^;&<]*);?/g, (whole, name: string) => {
    if (!whole.endsWith(";") || !(name in ENTITIES)) throw new Error(`a raw or unknown entity: ${whole}`);
    return ENTITIES[name]!;
  });
}

/** Every descendant element named `name`, in document order. */
export function findAll(element: XmlElement, name: string): XmlElement[] {
  return element.children.flatMap((child) => [...(child.name === name ? [child] : []), ...findAll(child, name)]);
}
