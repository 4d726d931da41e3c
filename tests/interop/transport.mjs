// The value transport and request loop shared by the node bridges that the
// interop tests drive (toon_bridge.mjs, eson_bridge.mjs).
//
// JSON alone cannot carry what the tests compare: it has no NaN, infinities,
// -0 or integers beyond 2**53, and a key "__proto__" assigned the ordinary
// way would change an object's prototype instead of adding a key.  So values
// travel tagged (tests/conftest.py holds the Python side):
//   null, true, false, "string"     as themselves (lone surrogates as \u escapes)
//   {"i": "123"}                    an integer: a number when it is safe, else a BigInt
//   {"f": "1.5"} / {"f": "NaN"}     a float, given as text Number() reads exactly
//   {"n": "-0"} / {"n": "1e+21"}    (answers) a JavaScript number, String(x) or "-0"
//   {"a": [...]}                    an array
//   {"o": [["key", value], ...]}    an object, keys in order, each an own property
//   {"u": 1}                        (answers) undefined
//
// Protocol: each line on stdin is a JSON array of requests; the bridge writes
// one line holding the JSON array of their answers, {"ok": true, "result": ...}
// or {"ok": false, "error": "...", "name": "SyntaxError"}.  Batching many
// documents per line keeps the tests fast.
import { createInterface } from "node:readline";

export function revive(value) {
  if (value === null || typeof value !== "object") return value;
  if (Object.hasOwn(value, "i")) {
    const number = Number(value.i);
    return Number.isSafeInteger(number) ? number : BigInt(value.i);
  }
  if (Object.hasOwn(value, "f")) return Number(value.f);
  if (Object.hasOwn(value, "a")) return value.a.map(revive);
  if (Object.hasOwn(value, "o")) {
    const object = {};
    for (const [key, item] of value.o) {
      Object.defineProperty(object, key, {
        value: revive(item), enumerable: true, configurable: true, writable: true,
      });
    }
    return object;
  }
  throw new TypeError(`unknown tagged value ${JSON.stringify(value)}`);
}

export function tag(value) {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (value === undefined) return { u: 1 };
  if (typeof value === "number") return { n: Object.is(value, -0) ? "-0" : String(value) };
  if (typeof value === "bigint") return { i: value.toString() };
  if (Array.isArray(value)) return { a: value.map(tag) };
  if (typeof value === "object") return { o: Object.keys(value).map((key) => [key, tag(value[key])]) };
  throw new TypeError(`cannot send a ${typeof value}`);
}

// Run `handlers[request.op](request)` for every request of every input line.
export async function serve(handlers) {
  const answer = (request) => {
    try {
      const handler = handlers[request.op];
      if (!handler) return { ok: false, error: `unknown op ${request.op}`, name: "Error" };
      return { ok: true, result: handler(request) };
    } catch (error) {
      return { ok: false, error: String(error?.message ?? error), name: error?.name ?? "Error" };
    }
  };
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (line) process.stdout.write(JSON.stringify(JSON.parse(line).map(answer)) + "\n");
  }
}
