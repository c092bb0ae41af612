/**
 * A tool description (plain text with Markdown habits) as blocks to render: paragraphs, fenced or
 * indented code, bullet lists, and docstring sections (`Args:`, `Returns:`, `Raises:`, `Example:`)
 * whose `name — text` / `name: text` entries become definition items. Pure; the page renders it.
 */

export type DescriptionBlock =
  | { kind: "paragraph"; text: string }
  | { kind: "code"; text: string; lang?: string }
  | { kind: "list"; items: string[] }
  | { kind: "section"; title: string; text?: string; items: { term: string; text: string }[] };

const SECTION = /^(Args|Arguments|Parameters|Params|Inputs?|Returns?|Yields|Raises|Errors|Examples?|Notes?|Output)\s*:\s*(.*)$/i;
/** "Returns the path written…" without a colon is still the Returns section. */
const SECTION_LOOSE = /^(Returns|Raises|Yields)\s+(?!:)(.+)$/;
const ITEM = /^(?:[-*]\s+)?`?([A-Za-z_][\w.[\]]*)`?\s*(?:\([^)]*\))?\s*(?:—|–|--|:|-)\s+(.+)$/;

/** Removes the indentation common to every non-blank line after the first (template literals). */
export function dedent(text: string): string[] {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const rest = lines.slice(1).filter((l) => l.trim() !== "");
  const indent = rest.length ? Math.min(...rest.map((l) => /^[ \t]*/.exec(l)?.[0].length ?? 0)) : 0;
  return lines.map((l, i) => (i === 0 ? l.trim() : l.slice(Math.min(indent, /^[ \t]*/.exec(l)?.[0].length ?? 0))));
}

/** `a — x; b — y` on one line: split into items only when every part looks like one. */
function inlineItems(text: string): { term: string; text: string }[] | null {
  const parts = text.split(/;\s+/).map((p) => p.trim().replace(/\.$/, ""));
  const items = parts.map((p) => ITEM.exec(p)).map((m) => (m ? { term: m[1] ?? "", text: m[2] ?? "" } : null));
  return items.length > 0 && items.every((i) => i !== null) ? items : null;
}

function isHeading(line: string): boolean {
  return SECTION.test(line) || SECTION_LOOSE.test(line);
}

export function descriptionBlocks(description: string): DescriptionBlock[] {
  const lines = dedent(description);
  const blocks: DescriptionBlock[] = [];
  let i = 0;
  const isBlank = (l: string | undefined) => l === undefined || l.trim() === "";

  while (i < lines.length) {
    const line = lines[i] ?? "";
    if (isBlank(line)) {
      i++;
      continue;
    }
    const fence = /^```\s*([\w-]*)\s*$/.exec(line.trim());
    if (fence) {
      const body: string[] = [];
      i++;
      while (i < lines.length && !/^```\s*$/.test((lines[i] ?? "").trim())) body.push(lines[i++] ?? "");
      i++;
      blocks.push(fence[1] ? { kind: "code", text: body.join("\n"), lang: fence[1] } : { kind: "code", text: body.join("\n") });
      continue;
    }
    if (/^( {4}|\t)/.test(line)) {
      const body: string[] = [];
      while (i < lines.length && (/^( {4}|\t)/.test(lines[i] ?? "") || (isBlank(lines[i]) && /^( {4}|\t)/.test(lines[i + 1] ?? "")))) {
        body.push((lines[i] ?? "").replace(/^( {4}|\t)/, ""));
        i++;
      }
      blocks.push({ kind: "code", text: body.join("\n") });
      continue;
    }
    const section = SECTION.exec(line) ?? SECTION_LOOSE.exec(line);
    if (section) {
      const title = (section[1] ?? "").replace(/^./, (c) => c.toUpperCase());
      const head = (section[2] ?? "").trim();
      i++;
      // The section runs to the next blank line or the next section heading.
      const body: string[] = [];
      while (i < lines.length && !isBlank(lines[i]) && !isHeading(lines[i] ?? "")) body.push(lines[i++] ?? "");
      const items: { term: string; text: string }[] = [];
      const loose: string[] = [];
      const fromHead = head ? inlineItems(head) : null;
      if (fromHead) items.push(...fromHead);
      else if (head) loose.push(head);
      let after: string[] = [];
      for (let j = 0; j < body.length; j++) {
        const b = body[j] ?? "";
        const m = ITEM.exec(b.trim());
        if (m && /^\s*([-*]\s+)?\S/.test(b) && (items.length > 0 || /^\s/.test(b) || /^[-*]\s/.test(b) || loose.length === 0))
          items.push({ term: m[1] ?? "", text: m[2] ?? "" });
        else if (items.length > 0 && /^\s+\S/.test(b)) {
          const last = items[items.length - 1];
          if (last) last.text += ` ${b.trim()}`;
        } else if (items.length > 0) {
          // A sentence after the entries, at the margin, is not one of them: the section ends there
          // (shown in the section it was drawn above the entries, as if it described the arguments).
          after = body.slice(j).map((l) => l.trim());
          break;
        } else loose.push(b.trim());
      }
      const block: DescriptionBlock = { kind: "section", title, items };
      if (loose.length) block.text = loose.join(" ");
      blocks.push(block);
      if (after.length) blocks.push({ kind: "paragraph", text: after.join(" ") });
      continue;
    }
    if (/^[-*]\s+/.test(line)) {
      const items: string[] = [];
      while (i < lines.length && !isBlank(lines[i])) {
        const l = lines[i] ?? "";
        if (/^[-*]\s+/.test(l)) items.push(l.replace(/^[-*]\s+/, ""));
        else if (items.length) items[items.length - 1] += ` ${l.trim()}`;
        i++;
      }
      blocks.push({ kind: "list", items });
      continue;
    }
    const para: string[] = [];
    while (i < lines.length && !isBlank(lines[i]) && !isHeading(lines[i] ?? "") && !/^```/.test((lines[i] ?? "").trim()) && !/^[-*]\s+/.test(lines[i] ?? "")) {
      para.push((lines[i] ?? "").trim());
      i++;
    }
    blocks.push({ kind: "paragraph", text: para.join(" ") });
  }
  return blocks;
}

/** Splits text on `backtick` spans so the renderer can show code inline. */
export function inlineCode(text: string): { code: boolean; text: string }[] {
  const out: { code: boolean; text: string }[] = [];
  const re = /`([^`]+)`/g;
  let last = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m.index > last) out.push({ code: false, text: text.slice(last, m.index) });
    out.push({ code: true, text: m[1] ?? "" });
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push({ code: false, text: text.slice(last) });
  return out;
}
