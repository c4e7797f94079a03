"""bench/read_latency.py on tiny histories (seconds, no model), and the query plans of the read
path: every hot query reaches the graph tables through an index (issue 7)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

import cmc

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))
import read_latency as bench  # noqa: E402

SIZE_KEYS = {"records", "p50_ms", "p95_ms", "max_ms", "ingest_records_per_s"}

# A FactConsolidation-shaped history: an overwrite that redirects the second hop, and a line no
# template matches (stored as no_fact). Invented names in the harness's own sentence shapes (its
# TEMPLATES, looked up by relation label).
SHAPE = {label: template for template, label in bench.TEMPLATES.items()}
LINES = [
    bench.sentence(SHAPE["place of birth"], "Ivo Marsh", "Fenwick"),
    bench.sentence(SHAPE["continent"], "Fenwick", "Europe"),
    bench.sentence(SHAPE["place of birth"], "Ivo Marsh", "Dunmere"),
    bench.sentence(SHAPE["continent"], "Dunmere", "Asia"),
    "The Mayor of Fenwick is Ada Crane.",
]
QUESTION = "On which continent is the city where Ivo Marsh was born?"


def tiny_history(tmp_path: Path) -> Path:
    context = "Here is a list of notes:\n" + "".join(f"{i}. {l}\n" for i, l in enumerate(LINES))
    rows = [{"context": context, "questions": [QUESTION], "answers": [["Asia"]],
             "metadata": {"source": bench.HISTORY}}]
    path = tmp_path / "fc.json"
    path.write_text(json.dumps(rows))
    return path


def test_lines_become_triples_with_the_templates():
    assert bench.triple_of(LINES[2]) == ("Ivo Marsh", "place of birth", "Dunmere")
    assert bench.triple_of("The original language of Glimmerfall is English.") == (
        "Glimmerfall", "original language", "English")
    assert bench.triple_of(LINES[4]) is None


def test_bench_runs_on_a_tiny_history_and_grows_it(tmp_path):
    results = bench.run(tiny_history(tmp_path), 600, tmp_path, generated=40, ingest=100, log=lambda s: None,
                        ingest_runs=2)
    assert [r["records"] for r in results] == [len(LINES), 600]
    for r in results:
        assert SIZE_KEYS <= set(r)
        assert 0 < r["p50_ms"] <= r["p95_ms"] <= r["max_ms"]
        # the rule-only ingest either ran (every record by a rule) or says why it could not
        assert (r["ingest_records_per_s"] or 0) > 0 or r["ingest_note"].startswith(("pending", "only"))
        assert len(r["ingest_runs"]) in ((2,) if r["ingest_records_per_s"] else (0,))
        # and once as a user runs it: `cmc.py add --file` in a new process, every record by a rule
        assert (r["cli_ingest_records_per_s"] or 0) > 0, r["cli_ingest_note"]
    assert results[0]["gold_in_evidence"] == 1
    assert results[1]["questions"] == 41 and results[1]["gold_in_evidence"] == 41

    db = cmc.open_db(tmp_path / "bench.db")
    statuses = [r[0] for r in db.execute("SELECT status FROM records WHERE serial <= 5 ORDER BY serial")]
    assert statuses == ["facts"] * 4 + ["no_fact"]
    read = cmc.recall(db, QUESTION)
    assert [e.serial for e in read.edges] == [3, 4]  # Dunmere, then Asia: not Fenwick's records
    assert {3, 4} <= {e["serial"] for e in read.evidence}


def test_bench_command_writes_one_json_object_per_size(tmp_path):
    out = tmp_path / "out.json"
    subprocess.run([sys.executable, str(REPO / "bench" / "read_latency.py"), "--data", "none",
                    "--records", "300", "--generated", "20", "--ingest", "0", "--json", str(out)],
                   check=True, capture_output=True, timeout=120)
    (size,) = json.loads(out.read_text())
    assert SIZE_KEYS <= set(size) and size["records"] == 300


def _indexed(db, table: str, column: str) -> bool:
    return any(db.execute(f"PRAGMA index_info({idx['name']})").fetchone()["name"] == column
               for idx in db.execute(f"PRAGMA index_list({table})"))


@pytest.mark.parametrize("name", bench.HOT_QUERIES)
def test_hot_query_reads_the_graph_through_indexes(tmp_path, name):
    bench.run(tiny_history(tmp_path), 300, tmp_path, generated=0, ingest=0, log=lambda s: None)
    db = cmc.open_db(tmp_path / "bench.db")
    plans = bench.query_plans(db)
    assert name in plans, f"cmc no longer defines {name}; update HOT_QUERIES in bench/read_latency.py"
    if name == "MAX_ANCHOR_WORDS" and not _indexed(db, "entities", "words"):
        pytest.xfail("max(words) reads every entity until schema.sql has "
                     "CREATE INDEX entities_by_words ON entities (words)")
    assert bench.full_scans({name: plans[name]}) == [], plans[name]


def test_a_full_scan_is_seen():
    assert bench.full_scans({"Q": ["SCAN e", "SEARCH a USING INTEGER PRIMARY KEY (rowid=?)"]}) == ["Q: SCAN e"]
    assert bench.full_scans({"Q": ["SEARCH entities"]}) == ["Q: SEARCH entities"]
    assert bench.full_scans({"Q": ["SEARCH entities USING COVERING INDEX entities_by_words",
                                   "SCAN json_each VIRTUAL TABLE INDEX 1:", "SCAN w"]}) == []


def test_anchor_matches_keys_with_accents_digits_and_punctuation(db):
    from conftest import put
    put(db, "Ansel, Duke of Várena is a citizen of Norland.", ("Ansel, Duke of Várena", "citizen_of", "Norland"))
    put(db, "1994 KBL Finals is associated with basketball.", ("1994 KBL Finals", "sport", "basketball"))
    assert cmc.anchor(db, "Where is ansel duke of VÁRENA from, and the 1994 KBL finals' sport?") == [
        "ansel duke of várena", "1994 kbl finals"]
