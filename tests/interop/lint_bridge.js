// Runs the reference Wire Profile linter (js/lint.js) on many payloads at once,
// for tests/test_lint_differential.py.
//
// Usage: node lint_bridge.js <path to the reference js/ directory>
// Reads a JSON array of payloads (each an array of UTF-16 code units, so lone
// surrogates survive) on stdin; writes a JSON array of finding lists.
"use strict";
const path = require("path");
const { lint } = require(path.join(process.argv[2], "lint.js"));
const input = JSON.parse(require("fs").readFileSync(0, "utf8"));
const out = input.map((units) => {
  const text = units.map((unit) => String.fromCharCode(unit)).join("");
  try {
    return { ok: true, findings: lint(text).findings };
  } catch (error) {
    return { ok: false, error: String(error && error.message) };
  }
});
process.stdout.write(JSON.stringify(out));
