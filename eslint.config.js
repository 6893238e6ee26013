// The linter of static/ (make lint): ES modules in the browser, the recommended rules.
// static/theme.js is the one classic script (loaded blocking in <head>).
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    files: ["static/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.browser },
    },
  },
  {
    files: ["static/theme.js"],
    languageOptions: { sourceType: "script" },
    // `catch (e)`: written for every browser, the oldest too (no optional catch binding).
    rules: { "no-unused-vars": ["error", { caughtErrors: "none" }] },
  },
];
