// ESLint 9 flat config: JavaScript's and typescript-eslint's recommended rules, the rules of hooks and jsx-a11y for
// the React code, and the house rules below. Prettier owns formatting; `npm run lint` runs both.
import js from "@eslint/js";
import { importX } from "eslint-plugin-import-x";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/** Dates are written by domain/dates.ts only, in the site's time zone (a date in the renderer's zone breaks hydration). */
const toLocaleString = ["toLocaleString", "toLocaleDateString", "toLocaleTimeString"].map((property) => ({
  selector: `MemberExpression[property.name="${property}"]`,
  message: `${property} writes the date in whichever zone renders it: use formatDate/longDate/dateTime from domain/dates.ts.`,
}));

/**
 * Imports by name (issue 39): another top folder, or two folders up or more, is `#app/…`, `#server/…`, `#domain/…`,
 * `#tests/…`, `#scripts/…` (package.json "imports", with the file's extension); the package's own package.json is read
 * relatively. Every block that restricts imports repeats it: a later block's options replace an earlier one's for the
 * files both match.
 */
const byName = {
  group: ["../../*", "!../../package.json", "../app/*", "../server/*", "../domain/*", "../tests/*"],
  message: "Import by name: #app/…, #server/…, #domain/…, #tests/… or #scripts/… with the file's extension.",
};

export default tseslint.config(
  { ignores: ["build/", "data/", "node_modules/", ".react-router/", "public/", "coverage/", "drizzle/"] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      "no-restricted-syntax": ["error", ...toLocaleString],
      // Unused names are already an error in tsc (noUnusedLocals); here only what tsc does not see, with _ for "on purpose".
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true },
      ],
      // `{}` is used as "no extra keys", the identity of `&` (the registry's field builders); no value is typed `{}`.
      "@typescript-eslint/no-empty-object-type": "off",
    },
  },
  {
    // Type-aware rules (issue 39): a promise nobody awaits or catches loses its error (an unhandled rejection stops
    // the process), and one handed where a void callback is expected is never waited for. `void` says "on purpose".
    files: ["**/*.{ts,tsx}"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
    },
  },
  {
    // No import cycles, types included (issue 39): a module's imports form a tree that reads from the top down.
    files: ["**/*.{ts,tsx}"],
    plugins: importX.flatConfigs.typescript.plugins,
    settings: importX.flatConfigs.typescript.settings,
    rules: { "import-x/no-cycle": ["error", { ignoreExternal: true }] },
  },
  {
    files: ["app/**/*.tsx"],
    ...reactHooks.configs.flat.recommended,
  },
  {
    files: ["app/**/*.tsx"],
    ...jsxA11y.flatConfigs.recommended,
  },
  {
    // Imports by name (byName above); `./` and one `../` within a top folder stay relative.
    files: ["**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [byName],
        },
      ],
    },
  },
  {
    // domain/ is shared by the browser and the server: it may import neither.
    files: ["domain/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/app/**", "**/server/**"],
              message: "domain/ imports neither app/ nor server/.",
            },
            { regex: "^#(app|server)/", message: "domain/ imports neither app/ nor server/." },
            byName,
          ],
        },
      ],
    },
  },
  {
    // server/ may read app/'s types (loaders' shapes) but never run its code: pages call the server, not back.
    files: ["server/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/app/**"],
              allowTypeImports: true,
              message: "server/ imports only types from app/: move shared code to domain/ or server/.",
            },
            {
              regex: "^#app/",
              allowTypeImports: true,
              message: "server/ imports only types from app/: move shared code to domain/ or server/.",
            },
            byName,
          ],
        },
      ],
    },
  },
  {
    // Small functions (issue 39, decision 085): a service's factory only wires; each command or query is a function of
    // its own; a component is drawn from named parts. 80 lines without blanks and comments: what a command with its
    // transaction needs. Every file of the app, the server, the domain and the scripts keeps it (tests aside).
    files: ["{app,server,domain,scripts}/**/*.{ts,tsx}"],
    ignores: ["**/*.test.{ts,tsx}"],
    rules: { "max-lines-per-function": ["error", { max: 80, skipBlankLines: true, skipComments: true }] },
  },
  {
    // No fixed sleeps in tests (issue 39): wait for the state itself (expect.poll, tests/support/wait.ts: until, gate,
    // queueDrained, untilNextSecond; nextFrames in a page), which passes as soon as it holds and fails with what it saw.
    // What must not happen over a span of time is watched through it (holdsFor). tests/support/ holds the helpers.
    files: ["tests/**/*.ts", "**/*.test.{ts,tsx}"],
    ignores: ["tests/support/**"],
    rules: {
      "no-restricted-syntax": [
        "error",
        ...toLocaleString,
        {
          selector: "AwaitExpression > NewExpression[callee.name='Promise'] CallExpression[callee.name='setTimeout']",
          message: "A fixed sleep: poll for the state instead (expect.poll, or a loop with a deadline).",
        },
        {
          selector: "AwaitExpression > CallExpression[callee.name='sleep']",
          message: "A fixed sleep: poll for the state instead (expect.poll, or a loop with a deadline).",
        },
        {
          selector: "CallExpression[callee.property.name='waitForTimeout']",
          message: "A fixed sleep: wait for the state instead (expect.poll, waitForLoadState, nextFrames).",
        },
      ],
    },
  },
  {
    // The formatter itself.
    files: ["domain/dates.ts"],
    rules: { "no-restricted-syntax": "off" },
  },
);
