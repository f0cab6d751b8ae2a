// Compiles .ksy files to Python with the Kaitai Struct compiler's JavaScript build,
// which has no command line: `node compile.js OUT_DIR FILE.ksy...`.
"use strict";
const fs = require("fs");
const path = require("path");
const yaml = require("js-yaml");
const compiler = require("kaitai-struct-compiler");

async function main() {
  const [out, ...inputs] = process.argv.slice(2);
  fs.mkdirSync(out, { recursive: true });
  for (const input of inputs) {
    const ksy = yaml.load(fs.readFileSync(input, "utf8"));
    const files = await compiler.compile("python", ksy, null, false);
    for (const [name, text] of Object.entries(files)) {
      fs.writeFileSync(path.join(out, name), text);
    }
  }
}

main().catch((err) => {
  console.error(`compile.js: ${err && err.stack ? err.stack : err}`);
  process.exit(1);
});
