// Lint: Next's rules (React, hooks incl. the React Compiler checks, a11y, imports), typescript-eslint
// with type information. Formatting is Prettier's job (npm run format:check), so no style rules here.
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import tseslint from "typescript-eslint";
import { layerRuleConfig } from "./eslint.layers.mjs";

export default tseslint.config(
  { ignores: [".next/**", ".next-*/**", "generated/**", "node_modules/**", "test-results/**", "playwright-report/**", "next-env.d.ts", "examples/**/dist/**"] },
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
    // Hooks live in components/ and app/; elsewhere a function named use… is not a React hook.
    files: ["lib/**/*.ts", "bin/**/*.ts", "e2e/**/*.ts", "bench/**/*.ts", "scripts/**/*"],
    rules: { "react-hooks/rules-of-hooks": "off" },
  },
  // The layer rule (DESIGN.md, README "Layout"): arrows point down only.
  ...layerRuleConfig,
);
