// Line-oriented bridge to the TypeScript reference implementation of TOON,
// used by tests/test_toon_interop_js.py.
//
// Usage: node toon_bridge.mjs <path to @toon-format/toon's dist/index.mjs>
//
// Reads one JSON request per line on stdin and answers each with one JSON
// line on stdout:
//   {"op": "encode", "value": <json>, "delimiter": ",", "indent": 2}
//   {"op": "decode", "text": "...", "strict": true, "indent": 2}
// Answers are {"ok": true, "result": ...} or {"ok": false, "error": "..."}.
// JSON has no NaN or infinities, so requests carry them as the strings below.
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";

const toon = await import(pathToFileURL(process.argv[2]).href);
const SPECIAL = { "\u0000NaN": NaN, "\u0000Infinity": Infinity, "\u0000-Infinity": -Infinity };

function revive(_key, value) {
  return typeof value === "string" && Object.hasOwn(SPECIAL, value) ? SPECIAL[value] : value;
}

function answer(line) {
  try {
    const request = JSON.parse(line, revive);
    if (request.op === "encode") {
      const options = { delimiter: request.delimiter, indent: request.indent };
      return { ok: true, result: toon.encode(request.value, options) };
    }
    if (request.op === "decode") {
      const options = { strict: request.strict, indent: request.indent };
      return { ok: true, result: toon.decode(request.text, options) };
    }
    return { ok: false, error: `unknown op ${request.op}` };
  } catch (error) {
    return { ok: false, error: String(error?.message ?? error) };
  }
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (line) process.stdout.write(JSON.stringify(answer(line)) + "\n");
}
