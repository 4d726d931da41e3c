// Bridge to the JavaScript ESON reference implementation, for
// tests/test_eson_interop_js.py.  The reference is loaded from where it lives
// (../shared/reference/eson/js/index.js beside the repository, or the
// directory the test names); it is never copied here.
//
// Usage: node eson_bridge.mjs <path to the reference's index.js>
//
// Requests (see transport.mjs for the protocol and the tagged values):
//   {"op": "encode", "value": <tagged>, "number": false}  -> text
//   {"op": "decode", "text": "..."}                        -> <tagged>
//   {"op": "tryDecode", "text": "..."}                     -> {"ok": bool, "value" | "error"}
import { createRequire } from "node:module";
import { resolve } from "node:path";
import { revive, serve, tag } from "./transport.mjs";

const require = createRequire(import.meta.url);
const eson = require(resolve(process.argv[2]));

await serve({
  encode: (request) => eson.encode(revive(request.value), { number: request.number }),
  decode: (request) => tag(eson.decode(request.text)),
  tryDecode: (request) => {
    const outcome = eson.tryDecode(request.text);
    return outcome.ok
      ? { ok: true, value: tag(outcome.value) }
      : { ok: false, error: String(outcome.error?.message ?? outcome.error) };
  },
});
