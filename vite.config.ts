import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { bundleModules } from "./scripts/bundle-modules-plugin.mjs";
import { inlineScripts } from "./scripts/inline-script-plugin.mjs";

// React Router 7's own Vite servers pass `envFile: false`, which Vite 8.1 deprecated: every build printed the notice
// nine times into the first start's log. React Router 8 passes `envDir: false` (remix-run/react-router#15230); until
// the port to it (decision 013), the notice is dropped here. The first one is printed before this file loads.
const ENV_FILE_NOTICE = "The `envFile` option is deprecated";
const warn = console.warn.bind(console);
console.warn = (...args: unknown[]) => {
  if (typeof args[0] === "string" && args[0].includes(ENV_FILE_NOTICE)) return;
  warn(...args);
};

/** The modules of the first script every hydrated page loads (decision 058), as paths under app/. */
const SHELL = [
  "entry.client.tsx",
  "root.tsx",
  "lib/hydration.ts",
  "components/ErrorPanel.tsx",
  "components/toast.tsx",
  "components/StrokeIcon.tsx",
  "components/FormAlert.tsx",
  "components/Badge.tsx",
  "components/field-state.ts",
  "components/layout/NavigationEffects.tsx",
  "components/media/MediaProvider.tsx",
];

/** A module id ending in one of these paths under app/. */
function shellModules(paths: string[]): RegExp {
  const escaped = paths.map((p) => p.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"));
  return new RegExp(`app\\/(${escaped.join("|")})$`);
}

export default defineConfig({
  plugins: [inlineScripts(), tailwindcss(), reactRouter(), bundleModules()],
  build: {
    assetsInlineLimit: 0,
    // Not a warning about the build's output: how long plugins took on this machine (a loaded one prints it).
    rolldownOptions: {
      checks: { bundlerTimings: false },
      // What every hydrated page loads before it runs, in one file (decision 058): the client entry with react-dom,
      // the root route and the small modules it loads (error panel, toasts, icons, navigation effects, the images'
      // context), with what they import (React Router, the JSX runtime, the bundler's runtime), and three small ones
      // most pages use (the form alert, the status badge, a field's link to its form). Each file is compressed
      // alone: four files were 1.7 KB gzipped more on every page. The root's route module is left as a two-line file
      // re-exporting from it (React Router's manifest names it).
      output: {
        codeSplitting: {
          groups: [
            {
              name: "shell",
              test: shellModules(SHELL),
            },
          ],
        },
      },
    },
  },
});
