// ESLint for the web pages' modules (api/static/*.js): plain ES modules in the browser, no bundler.
// Errors only for what breaks a page at run time or hides a slip: an undefined name (a ReferenceError
// that a try/catch would swallow), a name assigned but never read, unreachable code, a syntax error.
import globals from "globals";

export default [
  {
    files: ["**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.browser },
    },
    rules: {
      "no-undef": "error",
      "no-unused-vars": ["error", { args: "none", caughtErrors: "none" }],
      "no-unreachable": "error",
      "no-dupe-keys": "error",
      "no-redeclare": "error",
      "no-const-assign": "error",
      "no-self-assign": "error",
    },
  },
];
