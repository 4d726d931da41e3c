"""bench/charts.py: valid SVG, one bar per entry, every label, and loud on bad input.

Also: the charts and token figures committed under docs/ are what the scripts
produce today (docs/data/*.json -> docs/charts/*.svg; bench/format_table.py ->
docs/data/format_table.json and the summary table of docs/why.md), so a page
cannot show stale figures.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "fixtures" / "bench-results.json"
SVG = "{http://www.w3.org/2000/svg}"


def _script(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"bench_{name}", ROOT / "bench" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


charts = _script("charts")


def _fixture() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return data


def _draw(data: dict[str, Any]) -> dict[str, str]:
    results = charts.Results([], [])
    charts.merge(results, data, "fixture")
    drawn: dict[str, str] = charts.charts(results)
    return drawn


def _bars(svg: str) -> list[ET.Element]:
    root = ET.fromstring(svg)
    return [rect for rect in root.iter(f"{SVG}rect") if rect.get("class") == "bar"]


def _texts(svg: str) -> list[str]:
    return [text.text or "" for text in ET.fromstring(svg).iter(f"{SVG}text")]


def test_fixture_gives_one_chart_per_baseline_and_the_token_chart() -> None:
    assert sorted(_draw(_fixture())) == [
        "speed-msgspec-json.svg",
        "speed-pydantic-json.svg",
        "tokens.svg",
    ]


def test_charts_are_valid_standalone_svg() -> None:
    for name, svg in _draw(_fixture()).items():
        root = ET.fromstring(svg)  # well-formed XML, or this raises
        assert root.tag == f"{SVG}svg", name
        width, height = float(root.get("width", "0")), float(root.get("height", "0"))
        assert width > 0 and height > 0, name
        assert root.get("viewBox") == f"0 0 {width:.0f} {height:.0f}", name
        assert root.find(f"{SVG}title") is not None, name
        assert "<script" not in svg and "http" not in svg.replace(SVG[1:-1], ""), name
        for element in root.iter():  # everything drawn inside the picture
            for attribute in ("x", "y"):
                if element.get(attribute) is not None:
                    assert 0 <= float(element.get(attribute, "0")) <= max(width, height), name


def test_speed_chart_has_one_bar_per_row_with_its_label_and_value() -> None:
    data = _fixture()
    drawn = _draw(data)
    for baseline, name in (
        ("msgspec.json", "speed-msgspec-json.svg"),
        ("pydantic JSON", "speed-pydantic-json.svg"),
    ):
        rows = [row for row in data["speed"]["rows"] if row["baseline"] == baseline]
        svg = drawn[name]
        bars = _bars(svg)
        assert len(bars) == len(rows)
        texts = _texts(svg)
        for row in rows:
            assert row["case"] in texts
            assert f"{row['ratio']:.2f}x" in texts
        assert f"1.0 = {baseline}" in texts
        # Widths are proportional to the ratios, in row order within each case.
        ordered = sorted(rows, key=lambda row: [r["case"] for r in rows].index(row["case"]))
        per_unit = [
            float(bar.get("width", "0")) / row["ratio"]
            for bar, row in zip(bars, ordered, strict=True)
        ]
        assert max(per_unit) - min(per_unit) < 0.01 * max(per_unit)
        colours = {bar.get("fill") for bar in bars}
        modes = {row["speedups"] for row in rows}
        assert len(colours) == len(modes)
    assert "C accelerator" in _texts(drawn["speed-msgspec-json.svg"])
    assert "pure Python" in _texts(drawn["speed-msgspec-json.svg"])


def test_legend_wraps_inside_the_picture() -> None:
    data = _fixture()
    for index in range(6):  # many formats: the legend needs more than one line
        data["tokens"]["rows"].append(
            {
                "document": "small review",
                "format": f"format-{index}",
                "label": f"a long format label {index}",
                "tokens": 100 + index,
            }
        )
        data["tokens"]["rows"].append(
            {
                "document": "scalar envelope",
                "format": f"format-{index}",
                "label": f"a long format label {index}",
                "tokens": 30 + index,
            }
        )
    svg = _draw(data)["tokens.svg"]
    root = ET.fromstring(svg)
    width, height = float(root.get("width", "0")), float(root.get("height", "0"))
    legend = [text for text in root.iter(f"{SVG}text") if text.get("class") == "legend"]
    assert len(legend) == 8
    assert len({text.get("y") for text in legend}) > 1
    for text in legend:
        right = float(text.get("x", "0")) + 7.2 * len(text.text or "")
        assert right <= width and float(text.get("y", "0")) < height, text.text


def test_percentages_round_to_zero_without_a_sign() -> None:
    assert [charts._percent(x) for x in (0.0, 0.4, -0.4, 8.1, -27.6)] == [
        "0%",
        "0%",
        "0%",
        "+8%",
        "-28%",
    ]
    data = _fixture()
    data["tokens"]["rows"].append(
        {
            "document": "scalar envelope",
            "format": "columnar",
            "label": "JSON (columnar)",
            "tokens": 37,
        }
    )
    assert "0% (37)" in _texts(_draw(data)["tokens.svg"])


def test_labels_are_escaped_not_injected() -> None:
    svg = _draw(_fixture())["speed-msgspec-json.svg"]
    assert 'typed TOON <encode> & "decode"' in _texts(svg)
    assert "&lt;encode&gt; &amp;" in svg


def test_token_chart_has_one_bar_per_entry_and_totals() -> None:
    data = _fixture()
    rows = data["tokens"]["rows"]
    svg = _draw(data)["tokens.svg"]
    formats = {row["format"] for row in rows} - {"json-compact"}
    entries = [row for row in rows if row["format"] != "json-compact"]
    assert len(_bars(svg)) == len(entries) + len(formats)  # plus one total per format
    texts = _texts(svg)
    for document in {row["document"] for row in rows}:
        assert document in texts
    assert "all 2 documents" in texts
    assert "+8% (40)" in texts  # ESON on the scalar envelope: 40 vs 37
    assert "-15% (106)" in texts
    assert "-10% (146)" in texts  # the ESON total: (106 + 40) / (125 + 37) - 1
    assert "0 = JSON (compact)" in texts


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("schema"), '"schema" must be'),
        (lambda d: d["speed"]["rows"][0].update(ratio=-1), 'speed row 1: "ratio"'),
        (lambda d: d["speed"]["rows"][1].update(ratio=float("nan")), 'speed row 2: "ratio"'),
        (lambda d: d["speed"]["rows"][0].update(speedups="yes"), '"speedups"'),
        (lambda d: d["speed"]["rows"][0].pop("baseline"), '"baseline"'),
        (lambda d: d.update(speed=[1, 2]), '"speed" must be'),
        (lambda d: d["tokens"]["rows"][0].update(tokens=0), "tokens row 1"),
        (lambda d: d["tokens"]["rows"][0].update(tokens=True), "tokens row 1"),
        (lambda d: d["tokens"]["rows"].pop(0), 'needs a "json-compact" row'),
        (lambda d: d["tokens"]["rows"].append(dict(d["tokens"]["rows"][1])), "a second toon row"),
        (lambda d: d["tokens"].pop("encoding"), '"encoding"'),
    ],
)
def test_bad_results_are_refused_with_the_place(change: Any, message: str) -> None:
    data = copy.deepcopy(_fixture())
    change(data)
    with pytest.raises(charts.ResultsError, match=re.escape(message)):
        _draw(data)


def test_command_line_writes_the_charts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert charts.main([str(FIXTURE), "--out", str(tmp_path)]) == 0
    written = sorted(path.name for path in tmp_path.iterdir())
    assert written == ["speed-msgspec-json.svg", "speed-pydantic-json.svg", "tokens.svg"]
    bad = tmp_path / "bad.json"
    bad.write_text('{"schema": "typed-eson-bench/1"}', encoding="utf-8")
    assert charts.main([str(bad), "--out", str(tmp_path / "none")]) == 1
    assert "no speed or token rows" in capsys.readouterr().err
    bad.write_text("{", encoding="utf-8")
    assert charts.main([str(bad), "--out", str(tmp_path / "none")]) == 1
    assert "cannot read results" in capsys.readouterr().err


# --------------------------------------------------------------------------------------
# What docs/ shows is what the scripts give
# --------------------------------------------------------------------------------------

DATA = ROOT / "docs" / "data"
CHARTS = ROOT / "docs" / "charts"


def test_committed_charts_are_drawn_from_the_committed_results() -> None:
    results = charts.load(sorted(DATA.glob("*.json")))
    drawn = charts.charts(results)
    assert sorted(drawn) == sorted(path.name for path in CHARTS.glob("*.svg")), (
        "run: python bench/charts.py docs/data/*.json --out docs/charts"
    )
    for name, svg in drawn.items():
        assert (CHARTS / name).read_text(encoding="utf-8") == svg, (
            f"docs/charts/{name} is stale: python bench/charts.py docs/data/*.json --out docs/charts"
        )


def test_committed_token_figures_are_measured_today() -> None:
    from conftest import token_backends_or_skip

    token_backends_or_skip()
    table = _script("format_table")
    documents = json.loads(table.DATASETS.read_text(encoding="utf-8"))
    rows = table.measure(documents, "o200k_base")
    committed = json.loads((DATA / "format_table.json").read_text(encoding="utf-8"))
    assert committed["tokens"]["rows"] == rows, (
        "run: python bench/format_table.py --json docs/data/format_table.json"
    )
    # docs/why.md shows the summary of the same rows.
    why = (ROOT / "docs" / "why.md").read_text(encoding="utf-8")
    assert table.summary(rows) in why, (
        "docs/why.md's token table differs from bench/format_table.py"
    )
