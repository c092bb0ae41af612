// Lint: Next's rules (React, hooks incl. the React Compiler checks, a11y, imports), typescript-eslint
// with type information. Formatting is Prettier's job (npm run format:check), so no style rules here.
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import tseslint from "typescript-eslint";
import { layerRuleConfig } from "./eslint.layers.mjs";

const reactRules = nextVitals.flatMap((config) => Object.keys(config.rules ?? {})).filter((name) => /^(react|react-hooks|jsx-a11y|@next\/next)\//.test(name));

export default tseslint.config(
  {
    ignores: [
      ".next/**",
      ".next-*/**",
      "generated/**",
      "node_modules/**",
      "test-results/**",
      "playwright-report/**",
      "next-env.d.ts",
      "examples/**/dist/**",
      "dist/**",
      ".dist-*/**",
    ],
  },
  // Test data: deliberately broken plugins and a sample repository the search tools index.
  { ignores: ["examples/plugins/fixtures/**", "lib/**/__fixtures__/**"] },
  ...nextVitals,
  ...nextTs,
  {
    files: ["**/*.ts", "**/*.tsx"],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // `_name` marks a value left out on purpose (a rest sibling that drops a field, an unused parameter).
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true }],
      // Async interface methods (the AI SDK's doStream, MCP's event store, Next's headers()) need no await.
      "@typescript-eslint/require-await": "off",
    },
  },
  {
    // Tests, specs and benches read JSON bodies and mock async APIs: `any` flows and async
    // functions without await are how they are written, not mistakes.
    files: ["**/*.test.ts", "e2e/**/*.ts", "bench/**/*.ts", "lib/testing/**/*.ts"],
    rules: {
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      // Tool results are `string | JSON`; tests stringify the string ones they asked for.
      "@typescript-eslint/no-base-to-string": "off",
    },
  },
  {
    // React code lives in components/ and app/. Elsewhere (lib, the CLI, scripts, specs, benches and
    // every test) there is no component or hook to check: a function named use… is not a hook, and
    // the React Compiler's rules, which compile every function they see, cost a fifth of lint's time.
    files: ["lib/**/*.ts", "bin/**/*", "e2e/**/*.ts", "bench/**/*.ts", "scripts/**/*", "**/*.test.ts", "*.mjs", "*.ts"],
    rules: Object.fromEntries(reactRules.map((name) => [name, "off"])),
  },
  // The layer rule (docs/house.md, "The layer rule"): arrows point down only.
  ...layerRuleConfig,
);
