import "server-only";
import { getSingletonHighlighter, type ShikiTransformer } from "shiki";

const THEMES = { light: "github-light", dark: "github-dark" } as const;
const LANGS = ["typescript", "tsx", "javascript", "jsx", "json"] as const;

function highlighter() {
  // One highlighter per process: loading grammars is the slow part.
  return getSingletonHighlighter({ themes: Object.values(THEMES), langs: [...LANGS] });
}

/**
 * Source code as HTML with both themes' colours as CSS variables (`--shiki-light`,
 * `--shiki-dark`); the page picks one by the `.dark` class. Each line gets `id="L<n>"` and
 * `data-line`; lines in `mark` get the `hl` class.
 */
export async function highlightCode(code: string, lang: string, mark: { start: number; end: number } | null): Promise<string> {
  const h = await highlighter();
  const known = (LANGS as readonly string[]).includes(lang) ? lang : "text";
  const lines: ShikiTransformer = {
    line(node, line) {
      node.properties.id = `L${line}`;
      node.properties["data-line"] = String(line);
      if (mark && line >= mark.start && line <= mark.end) this.addClassToHast(node, "hl");
    },
  };
  return h.codeToHtml(code, { lang: known, themes: THEMES, defaultColor: false, transformers: [lines] });
}
