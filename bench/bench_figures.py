"""The figures table: typed-eson (accelerated and pure Python) against its peers.

Run: ``python bench/bench_figures.py [--json PATH]``.

Every ratio compares two cases timed in the same interleaved run
(:func:`timing.interleaved_best`).  The accelerated figures are measured in
this process; the pure-Python ones in a child process started with
``TYPED_ESON_NO_SPEEDUPS=1`` (its own interleaved run, with its own peer
timings), so each pure ratio is also against a peer in the same run.

Peers: ``msgspec.json`` and Pydantic's JSON on the same models; ``json`` and
``orjson`` (when installed) on the plain value; the official
``toon-format`` package on the same data; and ``msgspec-toon`` (a native
TOON codec for msgspec, published for CPython 3.13 only), timed by a child
process in a 3.13 venv (``--peer-python``, default ``.venv-313/bin/python``)
against ``msgspec.json`` in that same process.  Peers missing on the machine
are reported as missing, never guessed.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tracemalloc
from pathlib import Path
from typing import Any, Literal

import msgspec
import pydantic

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_startup import measure as measure_startup
from bench_startup import print_rows as print_startup_rows
from handoff import make_handoff
from timing import interleaved_best, machine

import eson
import eson.msgspec
import eson.toon

Severity = Literal["high", "medium", "low"]


class MFinding(eson.msgspec.Record):
    id: int
    severity: Severity
    file: str
    line: int
    message: str
    score: float
    ok: bool


class MHandoff(eson.msgspec.Message):
    kind: str
    findings: list[MFinding]


class PFinding(eson.Record):
    id: int
    severity: Severity
    file: str
    line: int
    message: str
    score: float
    ok: bool


class PHandoff(eson.Message):
    kind: str
    findings: list[PFinding]


class MDoc(eson.msgspec.Record):
    id: int
    title: str
    body: str


class MDocs(eson.msgspec.Message):
    docs: list[MDoc]


def mixed_text(rng: random.Random, size: int) -> str:
    """Mixed prose: ASCII words, accents, CJK, emoji, quotes, backslashes, tabs, newlines."""
    pieces = [
        "word",
        "lorem",
        "ipsum",
        "caf\u00e9",
        "na\u00efve",
        "\u4e2d\u6587",
        "\U0001f600",
        '"quoted"',
        "back\\slash",
        "\t",
        "\n",
        "x=1",
        "{json: [1]}",
        "\u00a0",
        "tab\there",
    ]
    out: list[str] = []
    length = 0
    while length < size:
        piece = rng.choice(pieces)
        out.append(piece)
        out.append(" ")
        length += len(piece) + 1
    return "".join(out)[:size]


def make_docs(count: int = 20, size: int = 10_000, seed: int = 7) -> dict[str, Any]:
    rng = random.Random(seed)
    return {
        "docs": [
            {"id": index, "title": f"document {index}", "body": mixed_text(rng, size)}
            for index in range(count)
        ]
    }


#: (id, what is compared, ours, peer, target ratio or None)
FIGURES = [
    (
        "msgspec-encode",
        "typed msgspec encode / msgspec.json.Encoder().encode",
        "eson.encode(struct)",
        "msgspec.json encode(struct)",
        1.0,
    ),
    (
        "msgspec-decode",
        "typed msgspec decode / msgspec.json.Decoder(T).decode",
        "eson.Decoder(T).decode",
        "msgspec.json Decoder(T).decode",
        1.25,
    ),
    (
        "pydantic-encode",
        "typed Pydantic encode / model_dump_json()",
        "eson.encode(model)",
        "model_dump_json()",
        0.5,
    ),
    (
        "pydantic-decode",
        "typed Pydantic decode / model_validate_json()",
        "eson.Decoder(P).decode",
        "model_validate_json()",
        1.1,
    ),
    (
        "untyped-encode",
        "untyped eson.encode / json.dumps (compact)",
        "eson.encode(dict)",
        "json.dumps(dict)",
        0.5,
    ),
    (
        "untyped-decode",
        "untyped eson.decode / json.loads",
        "eson.decode(text)",
        "json.loads(text)",
        1.0,
    ),
    (
        "untyped-encode-orjson",
        "untyped eson.encode / orjson.dumps",
        "eson.encode(dict)",
        "orjson.dumps(dict)",
        None,
    ),
    (
        "untyped-decode-orjson",
        "untyped eson.decode / orjson.loads",
        "eson.decode(text)",
        "orjson.loads(text)",
        None,
    ),
    (
        "toon-encode",
        "typed TOON encode / msgspec.json encode",
        "eson.toon.encode(struct)",
        "msgspec.json encode(struct)",
        2.0,
    ),
    (
        "toon-decode",
        "typed TOON decode / msgspec.json decode",
        "eson.toon.decode(text, type=T)",
        "msgspec.json Decoder(T).decode",
        2.0,
    ),
    (
        "strings-encode",
        "20 x 10 000-char mixed strings, typed encode / msgspec.json",
        "eson.encode(docs)",
        "msgspec.json encode(docs)",
        3.0,
    ),
    (
        "strings-decode",
        "20 x 10 000-char mixed strings, typed decode / msgspec.json",
        "eson.Decoder(Docs).decode",
        "msgspec.json Decoder(Docs).decode",
        3.0,
    ),
    (
        "stream-decode",
        "typed msgspec stream, 64-byte str chunks / the whole-text decode",
        "eson.StreamDecoder(T) 64 B chunks",
        "eson.Decoder(T).decode",
        1.3,
    ),
    (
        "stream-decode-toon",
        "typed msgspec TOON stream, 64-byte str chunks / the whole-text TOON decode",
        "eson.StreamDecoder(T, format='toon') 64 B chunks",
        "eson.toon.decode(text, type=T)",
        1.3,
    ),
    (
        "stream-decode-docs",
        "20 x 10 000-char mixed strings, stream in 64-byte chunks / whole-text decode",
        "eson.StreamDecoder(Docs) 64 B chunks",
        "eson.Decoder(Docs).decode",
        1.3,
    ),
    (
        "toon-format-encode",
        "toon-format encode(to_builtins) / msgspec.json encode",
        "toon_format.encode",
        "msgspec.json encode(struct)",
        None,
    ),
    (
        "toon-format-decode",
        "toon-format convert(decode) / msgspec.json decode",
        "toon_format.decode",
        "msgspec.json Decoder(T).decode",
        None,
    ),
]


#: The chart label and baseline of each figure bench/charts.py draws (the time
#: ratios to a JSON library; the peers, scaling and memory figures stay in the table).
CHART_ROWS = {
    "msgspec-encode": ("typed msgspec encode", "msgspec.json"),
    "msgspec-decode": ("typed msgspec decode", "msgspec.json"),
    "toon-encode": ("typed TOON encode", "msgspec.json"),
    "toon-decode": ("typed TOON decode", "msgspec.json"),
    "strings-encode": ("long strings, encode", "msgspec.json"),
    "strings-decode": ("long strings, decode", "msgspec.json"),
    "pydantic-encode": ("typed Pydantic encode", "pydantic JSON"),
    "pydantic-decode": ("typed Pydantic decode", "pydantic JSON"),
    "untyped-encode": ("untyped eson.encode", "json"),
    "untyped-decode": ("untyped eson.decode", "json"),
}


def speed_rows(runs: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``speed.rows`` of a results file (bench/charts.py) from the runs' figures."""
    rows = []
    for run in runs.values():
        for figure in run["figures"]:
            chart = CHART_ROWS.get(figure["id"])
            if chart is None or figure["ratio"] is None:
                continue
            case, baseline = chart
            rows.append(
                {
                    "case": case,
                    "baseline": baseline,
                    "speedups": bool(run["speedups"]),
                    "ratio": figure["ratio"],
                }
            )
    return rows


def streamed(model: type, chunks: list[str], format: str = "eson") -> Any:
    """A model's reply read as it streams (``eson.StreamDecoder``'s defaults), then closed."""
    decoder = eson.StreamDecoder(model, format=format)  # type: ignore[call-overload]
    feed = decoder.feed
    for chunk in chunks:
        feed(chunk)
    return decoder.close()


def time_cases(records: int, large: int) -> dict[str, float]:
    """All timed cases of one mode, in one interleaved run."""
    import json as stdlib_json

    value = make_handoff(records)
    m_model = msgspec.convert(value, MHandoff)
    p_model = PHandoff.model_validate(value)
    text = eson.encode(m_model)
    toon_text = eson.toon.encode(m_model)
    json_bytes = msgspec.json.encode(m_model)
    json_text = stdlib_json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    p_json = p_model.model_dump_json()
    m_decoder = eson.Decoder(MHandoff)
    p_decoder = eson.Decoder(PHandoff)
    j_encoder = msgspec.json.Encoder()
    j_decoder = msgspec.json.Decoder(MHandoff)
    docs_value = make_docs()
    docs = msgspec.convert(docs_value, MDocs)
    docs_text = eson.encode(docs)
    docs_json = msgspec.json.encode(docs)
    docs_decoder = eson.Decoder(MDocs)
    docs_json_decoder = msgspec.json.Decoder(MDocs)
    big = msgspec.convert(make_handoff(large), MHandoff)
    big_text = eson.encode(big)
    big_json = msgspec.json.encode(big)
    assert m_decoder.decode(text) == m_model and p_decoder.decode(text) == p_model
    assert eson.toon.decode(toon_text, type=MHandoff) == m_model
    assert docs_decoder.decode(docs_text) == docs and eson.decode(text) == value
    chunks = [text[at : at + 64] for at in range(0, len(text), 64)]
    docs_chunks = [docs_text[at : at + 64] for at in range(0, len(docs_text), 64)]
    toon_chunks = [toon_text[at : at + 64] for at in range(0, len(toon_text), 64)]
    assert streamed(MHandoff, chunks) == m_model and streamed(MDocs, docs_chunks) == docs
    assert streamed(MHandoff, toon_chunks, "toon") == m_model
    cases = {
        "eson.encode(struct)": lambda: eson.encode(m_model),
        "msgspec.json encode(struct)": lambda: j_encoder.encode(m_model),
        "eson.Decoder(T).decode": lambda: m_decoder.decode(text),
        "msgspec.json Decoder(T).decode": lambda: j_decoder.decode(json_bytes),
        "eson.encode(model)": lambda: eson.encode(p_model),
        "model_dump_json()": lambda: p_model.model_dump_json(),
        "eson.Decoder(P).decode": lambda: p_decoder.decode(text),
        "model_validate_json()": lambda: PHandoff.model_validate_json(p_json),
        "eson.encode(dict)": lambda: eson.encode(value),
        "json.dumps(dict)": lambda: stdlib_json.dumps(
            value, separators=(",", ":"), ensure_ascii=False
        ),
        "eson.decode(text)": lambda: eson.decode(text),
        "json.loads(text)": lambda: stdlib_json.loads(json_text),
        "eson.toon.encode(struct)": lambda: eson.toon.encode(m_model),
        "eson.toon.decode(text, type=T)": lambda: eson.toon.decode(toon_text, type=MHandoff),
        "eson.encode(docs)": lambda: eson.encode(docs),
        "msgspec.json encode(docs)": lambda: j_encoder.encode(docs),
        "eson.Decoder(Docs).decode": lambda: docs_decoder.decode(docs_text),
        "msgspec.json Decoder(Docs).decode": lambda: docs_json_decoder.decode(docs_json),
        "eson.StreamDecoder(T) 64 B chunks": lambda: streamed(MHandoff, chunks),
        "eson.StreamDecoder(Docs) 64 B chunks": lambda: streamed(MDocs, docs_chunks),
        "eson.StreamDecoder(T, format='toon') 64 B chunks": lambda: streamed(
            MHandoff, toon_chunks, "toon"
        ),
        f"eson.encode(struct) x{large}": lambda: eson.encode(big),
        f"eson.Decoder(T).decode x{large}": lambda: m_decoder.decode(big_text),
        # The peer's own per-row cost at both sizes, in the same rounds: what
        # the machine and the heap do to a larger decode, apart from eson.
        f"msgspec.json encode(struct) x{large}": lambda: j_encoder.encode(big),
        f"msgspec.json Decoder(T).decode x{large}": lambda: j_decoder.decode(big_json),
    }
    try:  # orjson, the fastest untyped JSON peer, where it is installed (the dev extra has it)
        import orjson

        # the same str input as eson.decode and json.loads get
        cases["orjson.dumps(dict)"] = lambda: orjson.dumps(value)
        cases["orjson.loads(text)"] = lambda: orjson.loads(json_text)
    except ImportError:
        pass
    try:
        import toon_format

        cases["toon_format.encode"] = lambda: toon_format.encode(msgspec.to_builtins(m_model))
        toon_peer_text = toon_format.encode(msgspec.to_builtins(m_model))
        cases["toon_format.decode"] = lambda: msgspec.convert(
            toon_format.decode(toon_peer_text), MHandoff
        )
    except ImportError:
        pass
    return interleaved_best(cases, rounds=25)


def peak_memory(large: int) -> dict[str, int]:
    """Peak traced bytes of one typed encode and decode at ``large`` rows, and msgspec.json's."""
    model = msgspec.convert(make_handoff(large), MHandoff)
    text = eson.encode(model)
    json_bytes = msgspec.json.encode(model)
    decoder = eson.Decoder(MHandoff)
    json_decoder = msgspec.json.Decoder(MHandoff)
    calls = {
        "eson encode": lambda: eson.encode(model),
        "msgspec.json encode": lambda: msgspec.json.encode(model),
        "eson decode": lambda: decoder.decode(text),
        "msgspec.json decode": lambda: json_decoder.decode(json_bytes),
    }
    peaks = {}
    for label, call in calls.items():
        call()
        tracemalloc.start()
        result = call()
        peaks[label] = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        del result
    return peaks


def figures(times: dict[str, float], records: int, large: int) -> list[dict[str, Any]]:
    rows = []
    for ident, what, ours, peer, target in FIGURES:
        if ours not in times or peer not in times:
            rows.append({"id": ident, "path": what, "ratio": None, "target": target, "met": None})
            continue
        ratio = times[ours] / times[peer]
        rows.append(
            {
                "id": ident,
                "path": what,
                "ratio": ratio,
                "target": target,
                "met": None if target is None else ratio <= target,
            }
        )
    scale = large / records
    for ident, ours, target in (
        ("scaling-encode", "eson.encode(struct)", 1.3),
        ("scaling-decode", "eson.Decoder(T).decode", 1.3),
        ("scaling-encode-msgspec", "msgspec.json encode(struct)", None),
        ("scaling-decode-msgspec", "msgspec.json Decoder(T).decode", None),
    ):
        ratio = times[f"{ours} x{large}"] / (scale * times[ours])
        rows.append(
            {
                "id": ident,
                "path": f"per-row cost at {large} rows / at {records} rows ({ours})",
                "ratio": ratio,
                "target": target,
                "met": None if target is None else ratio <= target,
            }
        )
    return rows


def measure(records: int, large: int) -> dict[str, Any]:
    times = time_cases(records, large)
    peaks = peak_memory(large)
    rows = figures(times, records, large)
    for kind in ("encode", "decode"):
        ratio = peaks[f"eson {kind}"] / peaks[f"msgspec.json {kind}"]
        rows.append(
            {
                "id": f"memory-{kind}",
                "path": f"peak memory of a typed {kind} at {large} rows / msgspec.json's",
                "ratio": ratio,
                "target": 1.0,
                "met": ratio <= 1.0,
            }
        )
    return {"speedups": eson.speedups, "times": times, "peaks": peaks, "figures": rows}


PEER_SCRIPT = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
import msgspec, msgspec_toon
from handoff import make_handoff
from timing import interleaved_best
from typing import Literal

class F(msgspec.Struct):
    id: int
    severity: Literal["high", "medium", "low"]
    file: str
    line: int
    message: str
    score: float
    ok: bool

class H(msgspec.Struct):
    kind: str
    findings: list[F]

model = msgspec.convert(make_handoff(int(sys.argv[2])), H)
toon = msgspec_toon.encode(model)
data = msgspec.json.encode(model)
assert msgspec_toon.decode(toon, type=H) == model
encoder, decoder = msgspec.json.Encoder(), msgspec.json.Decoder(H)
times = interleaved_best({
    "msgspec_toon.encode": lambda: msgspec_toon.encode(model),
    "msgspec_toon.decode": lambda: msgspec_toon.decode(toon, type=H),
    "msgspec.json encode": lambda: encoder.encode(model),
    "msgspec.json decode": lambda: decoder.decode(data),
}, rounds=9)
import platform
print(json.dumps({"python": platform.python_version(), "msgspec": msgspec.__version__,
                  "msgspec_toon": getattr(msgspec_toon, "__version__", None), "times": times}))
"""


def peer_msgspec_toon(python: str, records: int) -> dict[str, Any] | None:
    if not Path(python).exists():
        return None
    bench = str(Path(__file__).resolve().parent)
    done = subprocess.run(
        [python, "-c", PEER_SCRIPT, bench, str(records)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        return {"error": done.stderr.strip().splitlines()[-1:]}
    result: dict[str, Any] = json.loads(done.stdout)
    if result.get("msgspec_toon") is None:
        from importlib.metadata import PackageNotFoundError

        try:
            version = subprocess.run(
                [python, "-c", "import importlib.metadata as m; print(m.version('msgspec-toon'))"],
                capture_output=True,
                text=True,
                check=True,
            ).stdout.strip()
        except (subprocess.CalledProcessError, PackageNotFoundError):
            version = None
        result["msgspec_toon"] = version
    times = result["times"]
    result["ratios"] = {
        "encode": times["msgspec_toon.encode"] / times["msgspec.json encode"],
        "decode": times["msgspec_toon.decode"] / times["msgspec.json decode"],
    }
    return result


def _fmt(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}x"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--records", type=int, default=2000)
    parser.add_argument("--large", type=int, default=20_000)
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    parser.add_argument("--peer-python", default=".venv-313/bin/python")
    parser.add_argument(
        "--startup-rounds",
        type=int,
        default=5,
        help="fresh processes per start-up case (bench/bench_startup.py); 0 skips them",
    )
    parser.add_argument("--mode", choices=["both", "this"], default="both", help=argparse.SUPPRESS)
    args = parser.parse_args()
    run = measure(args.records, args.large)
    if args.mode == "this":  # the child process of the pure run
        print(json.dumps(run))
        return
    runs = {"accelerated" if run["speedups"] else "pure": run}
    if run["speedups"]:
        env = dict(os.environ, TYPED_ESON_NO_SPEEDUPS="1")
        child = subprocess.run(
            [
                sys.executable,
                __file__,
                "--mode",
                "this",
                "--records",
                str(args.records),
                "--large",
                str(args.large),
            ],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        runs["pure"] = json.loads(child.stdout.strip().splitlines()[-1])
    peer = peer_msgspec_toon(args.peer_python, args.records)
    try:
        from importlib.metadata import version

        toon_format_version: str | None = version("toon-format")
    except Exception:
        toon_format_version = None
    versions = {
        "typed-eson": eson.__version__,
        "msgspec": msgspec.__version__,
        "pydantic": pydantic.VERSION,
        "toon-format": toon_format_version,
    }
    print(f"{machine()}; " + ", ".join(f"{k} {v}" for k, v in versions.items()))
    print(f"handoff {args.records} records (scaling: {args.large}); lower ratios are faster\n")
    accelerated = runs.get("accelerated", {"figures": []})["figures"]
    pure = runs["pure"]["figures"]
    by_id = {row["id"]: row for row in pure}
    print(f"{'figure':78s}{'accel':>9s}{'pure':>9s}{'target':>9s}")
    for row in accelerated or pure:
        other = by_id.get(row["id"], {})
        target = "" if row["target"] is None else f"<= {row['target']:g}x"
        met = "" if row.get("met") is None else ("  met" if row["met"] else "  NOT met")
        print(
            f"{row['path']:78s}{_fmt(row['ratio']):>9s}{_fmt(other.get('ratio')):>9s}"
            f"{target:>9s}{met}"
        )
    if peer is None:
        print(f"\nmsgspec-toon: no interpreter at {args.peer_python}")
    elif "error" in peer:
        print(f"\nmsgspec-toon: failed: {peer['error']}")
    else:
        print(
            f"\nmsgspec-toon {peer['msgspec_toon']} (CPython {peer['python']}, msgspec "
            f"{peer['msgspec']}): encode {peer['ratios']['encode']:.2f}x, decode "
            f"{peer['ratios']['decode']:.2f}x msgspec.json in its own run"
        )
    startup = measure_startup(args.startup_rounds) if args.startup_rounds > 0 else None
    if startup is not None:
        print()
        print_startup_rows(startup)
    if args.json:
        payload = {
            "schema": "typed-eson-bench/1",
            "script": "bench/bench_figures.py",
            "machine": machine(),
            "versions": versions,
            "records": args.records,
            "large": args.large,
            "runs": runs,
            "peers": {"msgspec-toon": peer},
            "speed": {"rows": speed_rows(runs)},
            "startup": startup,
        }
        Path(args.json).write_text(json.dumps(payload, indent=2) + "\n")
        print(f"\nwrote {args.json}")


if __name__ == "__main__":
    main()
