/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS preload, run by --require */
// Preloaded (NODE_OPTIONS=--require) by tests/e2e/node-env.test.ts: prints which build of React and React DOM each
// process loads. Their index.js requires ./cjs/<name>.production.js or .development.js, chosen by NODE_ENV then.
const Module = require("node:module");
const path = require("node:path");

const load = Module._load;
Module._load = function (request, parent, isMain) {
  if (/^\.\/cjs\/react[\w.-]*\.(production|development)\.js$/.test(request) && parent?.filename) {
    process.stderr.write(`react build: ${path.basename(path.dirname(parent.filename))}/${request.slice(6)}\n`);
  }
  return load.call(this, request, parent, isMain);
};
