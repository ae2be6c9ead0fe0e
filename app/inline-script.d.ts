/** A script bundled and minified into a string by the build, to write inline (scripts/inline-script-plugin.mjs). */
declare module "*?inline-script" {
  const code: string;
  export default code;
}
