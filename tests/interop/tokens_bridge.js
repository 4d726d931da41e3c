// Counts tokens with the JavaScript gpt-tokenizer package, for tests/test_tokens.py.
//
// Usage: node tokens_bridge.js <gpt-tokenizer package directory>
// Reads {"encoding": "o200k_base", "texts": [[UTF-16 code units], ...]} on stdin
// and writes a JSON array of counts.  Special-token strings count as the text
// they are made of (nothing is allowed or disallowed as special).
"use strict";
const path = require("path");
const request = JSON.parse(require("fs").readFileSync(0, "utf8"));
const encoding = require(path.join(process.argv[2], "cjs", "encoding", `${request.encoding}.js`));
const options = { allowedSpecial: new Set(), disallowedSpecial: new Set() };
const counts = request.texts.map((units) => {
  const text = units.map((unit) => String.fromCharCode(unit)).join("");
  return encoding.countTokens(text, options);
});
process.stdout.write(JSON.stringify(counts));
