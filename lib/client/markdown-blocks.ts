const FENCE = /^ {0,3}(`{3,}|~{3,})/;
/** A line that may continue the block before a blank line: indented (a list item's paragraph, code) or a list item. */
const CONTINUES = /^(\s|[-*+] |\d{1,9}[.)] )/;

/**
 * Markdown cut at the blank lines where one top-level block ends and the next begins, so a message
 * that grows while it streams re-parses only its last block: the blocks before it are unchanged
 * strings, and a memoized renderer skips them. Fenced code stays whole, and a blank line followed by
 * an indented line or a list item is not cut (it may belong to the list above). Joined back with
 * "\n\n" the blocks are the text again.
 */
export function markdownBlocks(text: string): string[] {
  const lines = text.split("\n");
  const blocks: string[] = [];
  let start = 0;
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const marker = FENCE.exec(line)?.[1];
    if (marker) {
      if (fence === null) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = null;
      continue;
    }
    if (fence !== null || line.trim() !== "" || i === start) continue;
    const next = lines[i + 1];
    if (next === undefined || next.trim() === "" || CONTINUES.test(next)) continue;
    blocks.push(lines.slice(start, i).join("\n"));
    start = i + 1;
  }
  blocks.push(lines.slice(start).join("\n"));
  return blocks;
}
