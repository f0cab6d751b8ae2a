// Compiles .ksy files with the Kaitai Struct compiler's JavaScript build, which has
// no command line: `node compile.js [-t LANGUAGE] OUT_DIR FILE.ksy...` (default
// python; the compiler's names: java, cpp_stl, csharp, go, javascript, ...).
"use strict";
const fs = require("fs");
const path = require("path");
const yaml = require("js-yaml");
const compiler = require("kaitai-struct-compiler");

async function main() {
  let args = process.argv.slice(2);
  let target = "python";
  if (args[0] === "-t") {
    target = args[1];
    args = args.slice(2);
  }
  const [out, ...inputs] = args;
  if (!out || inputs.length === 0) {
    throw new Error("usage: node compile.js [-t LANGUAGE] OUT_DIR FILE.ksy...");
  }
  fs.mkdirSync(out, { recursive: true });
  for (const input of inputs) {
    const ksy = yaml.load(fs.readFileSync(input, "utf8"));
    const files = await compiler.compile(target, ksy, null, false);
    for (const [name, text] of Object.entries(files)) {
      const file = path.join(out, name);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, text);
    }
  }
}

main().catch((err) => {
  console.error(`compile.js: ${err && err.stack ? err.stack : err}`);
  process.exit(1);
});
