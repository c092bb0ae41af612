import { isMap, isScalar, LineCounter, parseDocument, type Document } from "yaml";

/** A YAML file parsed so that a problem at a key path can name its line. */
export interface LinedYaml {
  doc: Document;
  /** The line (from 1) of the node at `path`, or of `key` in the mapping there; the nearest enclosing node when it is missing. */
  lineOf(path: readonly (string | number)[], key?: string): number | undefined;
  /** The line (from 1) of a character offset: where a syntax error is. */
  lineAt(offset: number): number;
}

export function parseLinedYaml(text: string): LinedYaml {
  const counter = new LineCounter();
  const doc = parseDocument(text, { prettyErrors: false, lineCounter: counter });
  const line = (offset: number | undefined) => (offset === undefined ? undefined : counter.linePos(offset).line);
  return {
    doc,
    lineAt: (offset) => counter.linePos(offset).line,
    lineOf(path, key) {
      for (let n = path.length; n >= 0; n--) {
        const node: unknown = n === 0 ? doc.contents : doc.getIn(path.slice(0, n), true);
        if (!node || typeof node !== "object") continue;
        if (key !== undefined && n === path.length && isMap(node)) {
          const pair = node.items.find((p) => isScalar(p.key) && p.key.value === key);
          if (pair && isScalar(pair.key)) return line(pair.key.range?.[0]);
        }
        const range = (node as { range?: [number, number, number] }).range;
        if (range) return line(range[0]);
      }
      return undefined;
    },
  };
}
