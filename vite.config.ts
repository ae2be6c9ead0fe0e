import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { bundleModules } from "./scripts/bundle-modules-plugin.mjs";

// React Router 7's own Vite servers pass `envFile: false`, which Vite 8.1 deprecated: every build printed the notice
// nine times into the first start's log. React Router 8 passes `envDir: false` (remix-run/react-router#15230); until
// the port to it (decision 013), the notice is dropped here. The first one is printed before this file loads.
const ENV_FILE_NOTICE = "The `envFile` option is deprecated";
const warn = console.warn.bind(console);
console.warn = (...args: unknown[]) => {
  if (typeof args[0] === "string" && args[0].includes(ENV_FILE_NOTICE)) return;
  warn(...args);
};

export default defineConfig({
  plugins: [tailwindcss(), reactRouter(), bundleModules()],
  build: {
    assetsInlineLimit: 0,
    // Not a warning about the build's output: how long plugins took on this machine (a loaded one prints it).
    rolldownOptions: {
      checks: { bundlerTimings: false },
      // The small modules the root loads on every hydrated page (error panel, toasts, icons, navigation effects, the
      // images' context) in one file with what they import (React Router, the JSX runtime), instead of a file each:
      // 1.4 KB gzipped less on every signed-in page (each file is compressed alone), nothing more on any page. With
      // them the form alert and a field's link to its form (0.5 KB minified), which most pages' forms use: a file of
      // their own would cost more.
      output: {
        codeSplitting: {
          groups: [
            {
              name: "shell",
              test: /app\/(components\/(ErrorPanel|toast|StrokeIcon|FormAlert|layout\/NavigationEffects|media\/MediaProvider)\.tsx|components\/field-state\.ts|lib\/hydration\.ts)$/,
            },
          ],
        },
      },
    },
  },
});
