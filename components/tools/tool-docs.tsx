import { descriptionBlocks, inlineCode } from "./description-blocks";

function Inline({ text }: { text: string }) {
  return (
    <>
      {inlineCode(text).map((part, i) =>
        part.code ? (
          <code key={i} className="rounded bg-subtle px-1 font-mono text-[12.5px]">
            {part.text}
          </code>
        ) : (
          <span key={i}>{part.text}</span>
        ),
      )}
    </>
  );
}

/** The whole description: paragraphs, code, and `Args:` / `Returns:` as definition blocks. */
export function ToolDocs({ description }: { description: string }) {
  const blocks = descriptionBlocks(description);
  if (blocks.length === 0)
    return <p className="text-sm text-muted">This tool has no description. Its author should add one: the model reads it to decide when to call the tool.</p>;
  return (
    <div className="space-y-3 text-sm leading-relaxed" data-testid="tool-docs">
      {blocks.map((b, i) => {
        switch (b.kind) {
          case "paragraph":
            return (
              <p key={i} className={i === 0 ? "text-[15px] text-fg" : undefined}>
                <Inline text={b.text} />
              </p>
            );
          case "code":
            return (
              <pre key={i} className="overflow-x-auto rounded-md bg-subtle p-3 font-mono text-xs leading-5">
                {b.text}
              </pre>
            );
          case "list":
            return (
              <ul key={i} className="ml-5 list-disc space-y-0.5">
                {b.items.map((item, j) => (
                  <li key={j}>
                    <Inline text={item} />
                  </li>
                ))}
              </ul>
            );
          case "section":
            return (
              <div key={i} className="grid gap-x-4 gap-y-1 sm:grid-cols-[6.5rem_minmax(0,1fr)]" data-testid="doc-section" data-section={b.title}>
                <div className="text-xs font-semibold tracking-wide text-muted uppercase sm:pt-0.5">{b.title}</div>
                <div className="space-y-1">
                  {b.text ? (
                    <p>
                      <Inline text={b.text} />
                    </p>
                  ) : null}
                  {b.items.length ? (
                    <dl className="space-y-1">
                      {b.items.map((item) => (
                        <div key={item.term} className="flex flex-wrap gap-x-2">
                          <dt className="font-mono text-[13px] font-medium">{item.term}</dt>
                          <dd className="text-muted">
                            <Inline text={item.text} />
                          </dd>
                        </div>
                      ))}
                    </dl>
                  ) : null}
                </div>
              </div>
            );
        }
      })}
    </div>
  );
}
