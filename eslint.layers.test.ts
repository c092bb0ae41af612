// The layer rule holds: a deliberate breach of each zone fails the lint, the allowed arrows pass.
// Linted in memory with the project's own import resolution (Next's config) and layer blocks; the
// files need not exist, the imports resolve to real modules of this checkout.
import { ESLint } from "eslint";
import nextTs from "eslint-config-next/typescript";
import nextVitals from "eslint-config-next/core-web-vitals";
import { describe, expect, it } from "vitest";
import { layerRuleConfig } from "./eslint.layers.mjs";

const eslint = new ESLint({
  cwd: import.meta.dirname,
  overrideConfigFile: true,
  overrideConfig: [...nextVitals, ...nextTs, ...layerRuleConfig],
});

/** The layer rule's messages for `code` placed at `file`. */
async function breaches(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: file });
  return result!.messages
    .filter((m) => m.ruleId === "import/no-restricted-paths" || m.ruleId === "@typescript-eslint/no-restricted-imports")
    .map((m) => m.message);
}

describe("the layer rule", () => {
  const cases: [zone: string, file: string, code: string, says: RegExp][] = [
    [
      "lib → components",
      "lib/chat/breach.ts",
      'import { Button } from "@/components/ui/button";\nexport const b = Button;\n',
      /never imports app\/ or components/,
    ],
    ["lib → app", "lib/tools/breach.ts", 'import Layout from "@/app/layout";\nexport const l = Layout;\n', /never imports app\/ or components/],
    ["components → app", "components/chat/breach.tsx", 'import Layout from "@/app/layout";\nexport const l = Layout;\n', /components\/ never import app/],
    ["bin → components", "bin/commands/breach.ts", 'import { Button } from "@/components/ui/button";\nexport const b = Button;\n', /bin\/ calls lib\/ only/],
    [
      "lib/evals → lib/server",
      "lib/evals/breach.ts",
      'import { handle } from "@/lib/server/http/route";\nexport const h = handle;\n',
      /Only lib\/server imports lib\/server/,
    ],
    [
      "lib/chat → lib/trace",
      "lib/chat/breach.ts",
      'import { otlpIntegration } from "@/lib/trace/otlp";\nexport const o = otlpIntegration;\n',
      /imports neither lib\/trace nor lib\/evals/,
    ],
    [
      "lib/settings → lib/chat",
      "lib/settings/breach.ts",
      'import { OFFLINE_PROVIDER } from "@/lib/chat/offline-model";\nexport const m = OFFLINE_PROVIDER;\n',
      /no higher domain folder/,
    ],
    [
      "lib/db → lib/chat (a value)",
      "lib/db/breach.ts",
      'import { OFFLINE_PROVIDER } from "@/lib/chat/offline-model";\nexport const m = OFFLINE_PROVIDER;\n',
      /types only/,
    ],
    [
      "production → lib/testing",
      "lib/tools/breach.ts",
      'import { mulberry32 } from "@/lib/testing/random";\nexport const r = mulberry32;\n',
      /never imports lib\/testing/,
    ],
    [
      "a route → the raw chat queries",
      "app/api/chats/breach/route.ts",
      'import { getChat } from "@/lib/db/queries";\nexport const g = getChat;\n',
      /a chat is its owner's/,
    ],
  ];
  it.each(cases)("fails on %s", async (_zone, file, code, says) => {
    const messages = await breaches(file, code);
    expect(messages, `${file}: ${code}`).toHaveLength(1);
    expect(messages[0]).toMatch(says);
  });

  it("passes the arrows that point down", async () => {
    expect(await breaches("lib/server/ok.ts", 'import { OFFLINE_PROVIDER } from "@/lib/chat/offline-model";\nexport const m = OFFLINE_PROVIDER;\n')).toEqual(
      [],
    );
    expect(await breaches("lib/db/ok.ts", 'import type { Decision } from "@/lib/chat/metadata";\nexport type D = Decision;\n')).toEqual([]);
    expect(await breaches("lib/server/chat/chat-access.ts", 'import { getChat } from "@/lib/db/queries";\nexport const g = getChat;\n')).toEqual([]);
    expect(await breaches("lib/tools/ok.test.ts", 'import { mulberry32 } from "@/lib/testing/random";\nexport const r = mulberry32;\n')).toEqual([]);
  });
});
