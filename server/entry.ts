/**
 * The built server's entry (build/server/main.js; `npm run dev` runs server/main.ts itself). React and React DOM pick
 * their production or development build from NODE_ENV when first loaded, and a bundle's imports all load before its
 * first line runs: so NODE_ENV gets the configuration's default (production) here, and the app loads after it.
 */
if (!process.env.NODE_ENV) process.env.NODE_ENV = "production";
await import("./main");

export {};
