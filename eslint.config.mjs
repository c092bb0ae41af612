// Lint: Next's rules (React, hooks incl. the React Compiler checks, a11y, imports), typescript-eslint
// with type information. Formatting is Prettier's job (npm run format:check), so no style rules here.
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import tseslint from "typescript-eslint";

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
  },
);
