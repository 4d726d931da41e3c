// Bridge to the TypeScript reference implementation of TOON, @toon-format/toon,
// for tests/test_toon_interop_js.py.
//
// Usage: node toon_bridge.mjs <path to the package's dist/index.mjs>
//
// Requests (see transport.mjs for the protocol and the tagged values):
//   {"op": "encode", "value": <tagged>, "delimiter": ",", "indentSize": 2}  -> text
//   {"op": "decode", "text": "...", "strict": true, "indentSize": 2}        -> <tagged>
//   {"op": "version"}                                                     -> "4.4.0"
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { revive, serve, tag } from "./transport.mjs";

const entry = process.argv[2];
const toon = await import(pathToFileURL(entry).href);
const manifest = JSON.parse(readFileSync(join(dirname(entry), "..", "package.json"), "utf8"));

await serve({
  encode: (request) =>
    toon.encode(revive(request.value), {
      delimiter: request.delimiter, indentSize: request.indentSize,
    }),
  decode: (request) =>
    tag(toon.decode(request.text, { strict: request.strict, indentSize: request.indentSize })),
  version: () => manifest.version,
});
