/**
 * A small strict XML reader for tests: elements, attributes, text and the five predefined
 * entities (plus numeric ones). It throws on what a real parser refuses (a tag closed out of
 * order, a raw `<` or `&` in text or an attribute, a duplicate attribute), so a writer's output
 * can be checked for well-formedness and read back.
 */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function decode(raw: string, at: number): string {
  if (/<|&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/.test(raw)) throw new Error(`raw < or & near offset ${at}`);
  return raw.replace(/&(#x[0-9a-fA-F]+|#\d+|\w+);/g, (_, e: string) =>
    e.startsWith("#x") ? String.fromCodePoint(parseInt(e.slice(2), 16)) : e.startsWith("#") ? String.fromCodePoint(Number(e.slice(1))) : ENTITIES[e]!,
  );
}

export function parseXml(text: string): XmlElement {
  let i = 0;
  const skip = () => {
    for (;;) {
      const m = /^(\s+|<\?[\s\S]*?\?>|<!--[\s\S]*?-->)/.exec(text.slice(i));
      if (!m) return;
      i += m[0].length;
    }
  };
  const element = (): XmlElement => {
    const open = /^<([A-Za-z_][\w.-]*)/.exec(text.slice(i));
    if (!open) throw new Error(`expected an element at offset ${i}`);
    i += open[0].length;
    const el: XmlElement = { name: open[1]!, attributes: {}, children: [], text: "" };
    for (;;) {
      const attr = /^\s+([A-Za-z_][\w.:-]*)\s*=\s*"([^"]*)"/.exec(text.slice(i));
      if (!attr) break;
      if (attr[1]! in el.attributes) throw new Error(`duplicate attribute ${attr[1]} on <${el.name}>`);
      el.attributes[attr[1]!] = decode(attr[2]!, i);
      i += attr[0].length;
    }
    const end = /^\s*(\/?)>/.exec(text.slice(i));
    if (!end) throw new Error(`malformed tag <${el.name}> at offset ${i}`);
    i += end[0].length;
    if (end[1]) return el;
    for (;;) {
      const close = text.indexOf("<", i);
      if (close < 0) throw new Error(`<${el.name}> is never closed`);
      el.text += decode(text.slice(i, close), i);
      i = close;
      if (text.startsWith("</", i)) {
        const m = /^<\/([A-Za-z_][\w.-]*)\s*>/.exec(text.slice(i));
        if (!m || m[1] !== el.name) throw new Error(`</${m?.[1] ?? "?"}> closes <${el.name}> at offset ${i}`);
        i += m[0].length;
        return el;
      }
      if (text.startsWith("<!--", i)) skip();
      else el.children.push(element());
    }
  };
  skip();
  const root = element();
  skip();
  if (i !== text.length) throw new Error(`content after the root element at offset ${i}`);
  return root;
}
