"""Smoke test of bench/: both harnesses and the results page on a tiny history, with hand-built
extractions and a scripted reader, so they cannot rot. (The real runs are in docs/results.md.)"""

import json
import re
import sys
from pathlib import Path

import pytest
from conftest import FakeModel

import cmc

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
import common  # noqa: E402
import extraction  # noqa: E402
import factconsolidation  # noqa: E402
import locomo  # noqa: E402
import memstream  # noqa: E402
import natural  # noqa: E402
import results  # noqa: E402
import reworded  # noqa: E402

# Book X's author, Alice's citizenship and Norland's continent all change; the multi-hop answer
# needs the new author's record, then Norland's newest record. Each line with the triple its
# hand-built extraction gives it.
FACTS = {
    "The author of Book X is Alice Smith.": ("Book X", "author", "Alice Smith"),
    "Alice Smith is a citizen of Carpania.": ("Alice Smith", "citizen_of", "Carpania"),
    "Bob Jones is a citizen of Norland.": ("Bob Jones", "citizen_of", "Norland"),
    "Norland is located on the continent of Europe.": ("Norland", "continent", "Europe"),
    "Carpania is located on the continent of Europe.": ("Carpania", "continent", "Europe"),
    "The author of Book X is Bob Jones.": ("Book X", "author", "Bob Jones"),
    "Norland is located on the continent of Africa.": ("Norland", "continent", "Africa"),
    "Alice Smith is a citizen of Osterlich.": ("Alice Smith", "citizen_of", "Osterlich"),
}
MH = "Which continent is the country the author of Book X holds citizenship of located in?"
SH = "Which country is Alice Smith a citizen of?"


def newest_record_reader():
    """A scripted reader: answers with the last word of the newest record in its evidence."""
    def reply(prompt):
        block = prompt[prompt.rindex("Memory records"):prompt.rindex("Question:")]
        lines = [l for l in block.splitlines() if l.startswith("[")]
        return lines[-1].rstrip(".").split()[-1] if lines else "unknown"
    return FakeModel(default=reply)


def extract_by_hand(db, texts, prefix, triple_of):
    """Store records as the harness would and write their extraction without a model."""
    serials = cmc.add_records(db, [(t, f"{prefix}{i}") for i, t in enumerate(texts)])
    for serial, text in zip(serials, texts):
        t = triple_of(text)
        ex = cmc.Extraction(serial, "facts" if t else "no_fact", [cmc.Triple(*t)] if t else [])
        with cmc.transaction(db):
            cmc.write_extraction(db, ex)


@pytest.fixture
def fc_run(tmp_path):
    context = "Here is a list of notes:\n" + "".join(f"{i}. {text}\n" for i, text in enumerate(FACTS))
    rows = [{"context": context, "questions": [MH, "Which continent is Norland located in?"],
             "answers": [["Africa"], ["Africa"]], "metadata": {"source": "factconsolidation_mh_6k"}},
            {"context": context, "questions": [SH], "answers": [["Osterlich"]],
             "metadata": {"source": "factconsolidation_sh_6k"}}]
    data = tmp_path / "fc.json"
    data.write_text(json.dumps(rows))
    db = cmc.open_db(tmp_path / "fc_6k.db")
    extract_by_hand(db, list(FACTS), "fc:6k:", FACTS.get)
    db.close()
    out = tmp_path / "fc-results.json"
    doc = factconsolidation.main(["--data", str(data), "--subsets", "mh_6k,sh_6k", "--limit", "1",
                                  "--out-dir", str(tmp_path), "--json", str(out),
                                  "--predictions", str(tmp_path / "fc.jsonl")], model=newest_record_reader())
    return doc, out, tmp_path


def test_factconsolidation_views_on_a_tiny_history(fc_run):
    doc, out, tmp = fc_run
    assert json.loads(out.read_text()) == doc
    assert set(doc) >= {"results", "model", "commit"} and doc["model"] == "fake"
    rows = {(r["view"], r["subset"]): r for r in doc["results"]}
    assert {v for v, _ in rows} == set(common.VIEWS)
    assert {s for _, s in rows} == {"mh_6k", "sh_6k", "sh", "mh", "all"}
    for r in doc["results"]:
        assert set(r) == {"view", "subset", "n", "accuracy", "answer_in_evidence", "answer_in_rendered",
                          "mean_input_tokens", "truncated"}
        assert r["n"] == (2 if r["subset"] == "all" else 1) and r["mean_input_tokens"] > 0 and r["truncated"] == 0

    def cells(view, key):
        return rows[(view, "sh")][key], rows[(view, "mh")][key]
    # cmc follows the new author to Norland's newest continent; reading the old graph first finds
    # Carpania's record; keeping cmc's keys with their old values finds Europe.
    # (the fake reads the newest record it is shown; the window read shows the history's newest
    # lines beside the multi-hop path, so only the single-hop answer is the fake's to get)
    assert cells("cmc", "answer_in_evidence") == (1.0, 1.0) and cells("cmc", "accuracy")[0] == 1.0
    assert cells("cmc", "answer_in_rendered") == (1.0, 1.0)
    assert cells("stale-closure", "answer_in_rendered") == (0.0, 0.0)
    assert cells("prior-read-refresh", "answer_in_evidence") == (1.0, 0.0)
    assert cells("prior-read-refresh", "accuracy") == (1.0, 0.0)
    assert cells("stale-closure", "answer_in_evidence") == (0.0, 0.0)
    assert cells("stale-closure", "accuracy") == (0.0, 0.0)
    assert cells("latest-state", "answer_in_evidence") == (1.0, 1.0)
    assert cells("raw-history", "answer_in_evidence") == (1.0, 1.0)
    assert cells("raw-history", "accuracy") == (1.0, 0.0)  # free text: the newest record says Osterlich

    preds = [json.loads(l) for l in (tmp / "fc.jsonl").read_text().splitlines()]
    texts = {i + 1: text for i, text in enumerate(FACTS)}
    size = lambda p: sum(len(f"[{s}] {texts[s]}\n") for s in p["evidence"])  # noqa: E731  (the evidence's lines)
    by = {(p["view"], p["id"]): p for p in preds}
    # the path (3, 6, 7) and, through the one window of this tiny history, the other current fact
    # (5); the superseded records 1, 2 and 4 are left out
    assert by[("cmc", "mh_6k:0")]["evidence"] == [3, 5, 6, 7, 8]
    assert by[("prior-read-refresh", "mh_6k:0")]["evidence"] == [5, 6, 8]
    assert by[("stale-closure", "mh_6k:0")]["evidence"] == [1, 3, 4]
    for qid in ("mh_6k:0", "sh_6k:0"):
        assert size(by[("fact-bm25-matched", qid)]) <= size(by[("cmc", qid)])
        assert by[("latest-state", qid)]["evidence"] == [3, 5, 6, 7, 8]


def test_benchmark_scoring_rule():
    assert common.normalize_answer("The  Fairly OddParents!") == "fairly oddparents"
    assert common.score("Answer: Belgium", ["Belgium"]) and common.score("It is the Belgium.", ["belgium"])
    assert not common.score("Belgian", ["Belgium"])
    assert common.answer_in("[3] Bengaluru is in Asia.\n", ["Asia"])
    assert not common.answer_in("[3] Bengaluru is in Asia.\n", ["en"])  # whole words only
    assert common.answer_in("[2] Pell is allergic to cats.\n", ["cat"])  # a plural or possessive s
    assert not common.answer_in("[2] Pell is allergic to catfish.\n", ["cat"])


CASES = [  # CF-3k format, two hops each; cases 3 and 4 disagree on Spain's capital after the edit
    (1, "Ann Lee", ("France", "Paris"), ("Spain", "Madrid"), 0),
    (2, "Bo Kim", ("Japan", "Tokyo"), ("Japan", "Kyoto"), 1),
    (3, "Cy Dee", ("Spain", "Madrid"), ("Spain", "Seville"), 1),
    (4, "Di Fox", ("Italy", "Rome"), ("Spain", "Madrid"), 0),
]


def mquake_case(case_id, person, old, new, edited_hop):
    def hops(country, capital):
        return [{"question": f"Which country is {person} a citizen of?", "cloze": f"{person} is a citizen of",
                 "answer": country, "answer_alias": [f"{country} (country)"]},
                {"question": f"What is the capital of {country}?", "cloze": f"The capital of {country} is",
                 "answer": capital, "answer_alias": []}]
    rewrite = ({"prompt": "{} is a citizen of", "subject": person, "target_true": {"str": old[0]},
                "target_new": {"str": new[0]}, "relation_id": "P27"} if edited_hop == 0 else
               {"prompt": "The capital of {} is", "subject": old[0], "target_true": {"str": old[1]},
                "target_new": {"str": new[1]}, "relation_id": "P36"})
    return {"case_id": case_id, "requested_rewrite": [rewrite],
            "questions": [f"What capital does the country {person} is a citizen of have?", "unused"],
            "answer": old[1], "answer_alias": [], "new_answer": new[1], "new_answer_alias": [f"{new[1]} city"],
            "single_hops": hops(*old), "new_single_hops": hops(*new)}


def mquake_triple(text):
    m = re.fullmatch(r"(.+) is a citizen of (.+)\.", text) or re.fullmatch(r"The capital of (.+) is (.+)\.", text)
    return (m[1], "citizen_of" if "citizen" in text else "capital", m[2])


@pytest.fixture
def ms_run(tmp_path):
    cases = tmp_path / "cases.json"
    cases.write_text(json.dumps([mquake_case(*c) for c in CASES]))
    dataset = tmp_path / "ms.json"
    built = memstream.main(["build", "--cases", str(cases), "--out", str(dataset), "--pool-size", "2"])
    pool = built["pools"][0]
    db = cmc.open_db(tmp_path / "ms_cases_p0.db")
    extract_by_hand(db, [r["text"] for r in pool["records"]], "ms:cases:p0:", mquake_triple)
    db.close()
    out = tmp_path / "ms-results.json"
    doc = memstream.main(["eval", "--dataset", str(dataset), "--pools", "0", "--limit", "1", "--out-dir",
                          str(tmp_path), "--json", str(out), "--predictions", str(tmp_path / "ms.jsonl")],
                         model=newest_record_reader())
    return built, doc, out, tmp_path


def test_memstream_build_pools_blocks_questions_and_audit(ms_run, tmp_path):
    built = ms_run[0]
    assert [p["case_ids"] for p in built["pools"]] == [[1, 2], [3, 4]]
    for p in built["pools"]:
        blocks = [r["block"] for r in p["records"]]
        assert blocks == ["pre"] * 6 + ["post"] * 6  # 2 cases x (2 hops + 1 rewrite), then the same after
    assert "Ann Lee is a citizen of France." in [r["text"] for r in built["pools"][0]["records"][:6]]
    assert [r["text"] for r in built["pools"][0]["records"][6:]].count("Ann Lee is a citizen of Spain.") == 2
    qs = {q["id"]: q for q in built["questions"]}
    assert qs["p0:mh:1"]["answers"] == ["Madrid", "Madrid city"]
    assert qs["p0:mh:1"]["question"] == "What capital does the country Ann Lee is a citizen of have?"
    assert all(q["question"] != "unused" for q in built["questions"])
    # Spain's capital is Seville for case 3 and Madrid for case 4: whichever the stream says last
    # wins, and the other case loses its multi-hop question.
    final = [r["text"] for r in built["pools"][1]["records"] if r["text"].startswith("The capital of Spain")][-1]
    loser = 3 if final.endswith("Madrid.") else 4
    assert [q["case_id"] for q in built["questions"] if q["subset"] == "mh" and q["excluded"]] == [loser]
    assert built["audit"]["cases_with_overwritten_hop"] == 1 and built["audit"]["excluded"]["mh"] == 1
    again = tmp_path / "again.json"
    memstream.main(["build", "--cases", str(tmp_path / "cases.json"), "--out", str(again), "--pool-size", "2"])
    assert json.loads(again.read_text()) == json.loads((tmp_path / "ms.json").read_text())  # seeded


def test_memstream_eval_reads_each_view(ms_run):
    _, doc, out, _ = ms_run
    assert json.loads(out.read_text()) == doc
    rows = {(r["view"], r["subset"]): r for r in doc["results"]}
    assert set(rows) == {(v, s) for v in memstream.EVAL_VIEWS for s in ("sh", "mh", "all")}
    assert rows[("cmc", "mh")]["answer_in_evidence"] == 1.0
    assert rows[("cmc", "sh")]["answer_in_evidence"] == 1.0
    assert rows[("raw-history", "all")]["truncated"] == 0 and rows[("cmc", "all")]["n"] == 2


def results_folder(tmp_path, fc_run=None, ms_run=None, **extra):
    """A bench/results-like folder holding the runs' JSONs under the names the page reads."""
    folder = tmp_path / "results"
    folder.mkdir(exist_ok=True)
    if fc_run:
        (folder / "factconsolidation.json").write_text(fc_run[1].read_text())
    if ms_run:
        (folder / "memstream.json").write_text(ms_run[2].read_text())
    for name, doc in extra.items():
        (folder / f"{name}.json").write_text(json.dumps(doc))
    return folder


def test_results_page_is_generated_from_the_jsons_alone(fc_run, ms_run, tmp_path):
    startup = {"command": "python bench/mcp_startup.py", "commit": "0" * 40, "cpus": 2, "python": "3.11.7",
               "load_average_1_5_15_min": [0.5, 0.4, 0.3], "initialize_ms_median": 812.5,
               "initialize_ms_runs": [812.5, 799.0, 830.1], "target_ms": 1000}
    folder = results_folder(tmp_path, fc_run, ms_run, mcp_startup=startup, unknown={"x": 1})
    page = tmp_path / "docs" / "results.md"
    page.parent.mkdir()
    page.write_text("# Results\n\n## 2026-01-01: an old note\n\np50 13 ms\n")
    args = ["--results", str(folder), "--out", str(page), "--no-chart"]
    first = results.main(args)
    assert page.read_text() == first and first.startswith("# Results\n")
    assert "an old note" not in first and "p50 13 ms" not in first  # nothing hand-written is kept
    for heading in ("## Summary", "## FactConsolidation", "## MQuAKE-MemStream", "## MCP server start-up", "## All runs"):
        assert first.count(f"\n{heading}\n") == 1
    assert "## natural-dev" not in first and "## LoCoMo" not in first  # no JSON, no section
    assert "**Partial run**" in first and "| `cmc` | 100.0% | 0.0% | 50.0% | 100.0% | 100.0% |" in first
    assert fc_run[0]["commit"][:12] in first and fc_run[0]["command"] in first
    assert "**812.5 ms**" in first and "2 cores, Python 3.11.7" in first
    assert "date not recorded" in first  # the start-up JSON records no date, and git does not know the file
    assert "machine not recorded" in first  # the FactConsolidation JSON records no machine
    assert "no section reads: `unknown.json`" in first
    assert results.main(args) == first  # the same JSONs give the same page


def test_results_chart(fc_run, tmp_path):
    pytest.importorskip("matplotlib")
    page = tmp_path / "docs" / "results.md"
    results.main(["--results", str(results_folder(tmp_path, fc_run)), "--out", str(page)])
    chart = (tmp_path / "docs" / results.CHART).read_bytes()
    assert chart[:8] == b"\x89PNG\r\n\x1a\n"
    assert f"]({results.CHART})" in page.read_text()
    results.main(["--results", str(tmp_path / "results"), "--out", str(page)])
    assert (tmp_path / "docs" / results.CHART).read_bytes() == chart  # drawn the same again


@pytest.fixture
def reworded_run(tmp_path, monkeypatch):
    """FACTS as a FactConsolidation file, one line no template explains, and the MQuAKE prompts
    of two of its relations (the shared MQuAKE files are not read)."""
    prompts = tmp_path / "mquake.json"
    prompts.write_text(json.dumps([{"requested_rewrite": [{"prompt": "{} is a citizen of"},
                                                          {"prompt": "The author of {} is"}]}]))
    monkeypatch.setattr(extraction, "TEMPLATE_SOURCES", [prompts])
    monkeypatch.setattr(extraction, "EXTRA_TEMPLATES", ())
    facts = list(FACTS) + ["Alice Smith speaks the language of Carpanian."]
    context = "Here is a list of notes:\n" + "".join(f"{i}. {f}\n" for i, f in enumerate(facts))
    rows = [{"context": context, "questions": [MH], "answers": [["Africa"]],
             "metadata": {"source": f"factconsolidation_{hop}_6k"}} for hop in ("mh", "sh")]
    data, out = tmp_path / "fc.json", tmp_path / "reworded" / "Conflict_Resolution.json"
    data.write_text(json.dumps(rows))
    doc = reworded.main(["build", "--data", str(data), "--out", str(out)])
    return facts, rows, out, doc


def test_reworded_build_keeps_arguments_and_changes_wording(reworded_run):
    facts, rows, out, doc = reworded_run
    new_rows = json.loads(out.read_text())
    assert [{k: v for k, v in r.items() if k != "context"} for r in new_rows] == \
        [{k: v for k, v in r.items() if k != "context"} for r in rows]
    assert new_rows[0]["context"] == new_rows[1]["context"]
    new = factconsolidation.fact_lines(new_rows[0]["context"])
    assert len(new) == len(facts) and new_rows[0]["context"].count("\n") == rows[0]["context"].count("\n")
    gold = {g["line"]: g for g in doc["histories"]["6k"]["gold"]}
    explained = {i: (s, o) for i, (s, r, o) in enumerate(FACTS.values()) if r in ("author", "citizen_of")}
    assert {i: (g["subject"], g["object"]) for i, g in gold.items()} == explained
    for i, line in enumerate(facts):
        if i in gold:
            assert new[i] != line and new[i] == gold[i]["text"]
            assert gold[i]["subject"] in new[i] and gold[i]["object"] in new[i]  # verbatim
            assert extraction.explain(new[i], [(t, extraction.template_pattern(t))
                                               for t in extraction.template_strings()]) is None
        else:
            assert new[i] == line
    assert new[0] == "Book X was written by Alice Smith."
    assert doc["histories"]["6k"] | {"gold": None} == {"lines": 9, "reworded": 5, "unreworded": 4, "gold": None}
    assert doc["templates_used"] == {"{} is a citizen of": 3, "The author of {} is": 2}
    assert extraction.sidecar(out).exists() and extraction.history_lines("6k", out) == new


def test_reworded_gold_scores_a_hand_built_extraction(reworded_run, tmp_path):
    facts, _, out, doc = reworded_run
    lines = extraction.history_lines("6k", out)
    gold, first, template = extraction.sidecar_gold(extraction.sidecar(out), "6k", lines)
    db = cmc.open_db(tmp_path / "x.db")
    # every explained line read right, except line 1 read backwards (object, subject)
    triples = {g["text"]: (g["subject"], "r", g["object"]) for g in doc["histories"]["6k"]["gold"]}
    triples[lines[1]] = (gold[1][1], "r", gold[1][0])
    extract_by_hand(db, lines, "fc:6k:", triples.get)
    assert extraction.accuracy(db, lines, gold)[:2] == (4, 5)
    scored = extraction.breakdown(db, gold, first, template)
    assert scored["correct_either_direction"] == 5
    assert scored["subject_first"]["gold_lines"] + scored["object_first"]["gold_lines"] == 5
    assert scored["by_template"] == {"{} is a citizen of": [3, 2, 3], "The author of {} is": [2, 2, 2]}
    with pytest.raises(SystemExit):  # a sidecar of other lines is refused
        extraction.sidecar_gold(extraction.sidecar(out), "6k", ["x"] * len(lines))


def test_reworded_refuses_a_template_without_rewording(reworded_run, monkeypatch, tmp_path):
    monkeypatch.delitem(reworded.REWORDINGS, "The author of {} is")
    with pytest.raises(SystemExit, match="no rewording"):
        reworded.build(tmp_path / "fc.json", tmp_path / "again.json")


def lives_in(prompt):  # reads the record the prompt ends with, "<Name> lives in <Place>."
    record = re.findall(r"Record: (\w+) lives in (\w+)\.\nJSON:$", prompt)
    if record:
        return json.dumps({"status": "facts", "triples": [
            {"subject": record[0][0], "relation": "lives_in", "object": record[0][1]}]})
    return "York"


def scenario_set(tmp_path, scenarios) -> Path:
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps({"name": "tiny", "title": "Tiny set", "blocks": {"a": "first", "b": "then"},
                                "scenarios": scenarios}))
    return path


def test_a_set_file_is_scored_with_everydays_fields(tmp_path):
    data = scenario_set(tmp_path, [
        {"block": "a", "records": ["Mara lives in Leeds.", "Mara lives in York."],
         "questions": [{"kind": "same", "q": "Where does Mara live?", "answers": ["York"]}]},
        {"block": "b", "name": "ola", "records": ["Ola lives in Rome."],
         "questions": [{"kind": "same", "q": "Where does Ola live?", "answers": ["Paris"]}]}])
    out = tmp_path / "tiny-results.json"
    doc = natural.main([str(data), "--json", str(out)], model=FakeModel(default=lives_in))
    assert json.loads(out.read_text()) == doc
    assert [q["correct"] for q in doc["questions"]] == [True, False]
    assert [q["scenario"] for q in doc["questions"]] == ["0", "ola"]  # unnamed: its position in the file
    assert doc["summary"] == {"same": {"n": 2, "right": 1}, "all": {"n": 2, "right": 1}}
    assert (doc["set"], doc["one_by_one"], doc["answer_model"], doc["scenarios"]) == ("tiny", False, "fake", 2)
    assert natural.main([str(data), "--block", "b", "--json", str(out)], model=FakeModel(default=lives_in))["scenarios"] == 1
    with pytest.raises(SystemExit, match="No block c"):
        natural.main([str(data), "--block", "c"], model=FakeModel(default=lives_in))
    args = natural.parser().parse_args([str(data), "--one-by-one"])
    assert natural.default_json(data, args, {"name": "tiny"}).name == "tiny-one-by-one.json"


def test_a_set_file_one_by_one_extracts_each_record_on_its_own(tmp_path):
    data = scenario_set(tmp_path, [{"records": ["Mara lives in Leeds.", "Mara lives in York."],
                                    "questions": [{"kind": "same", "q": "Where does Mara live?", "answers": ["York"]}]}])
    records_per_prompt = {}
    for one_by_one in (False, True):
        model = FakeModel(default=lives_in)
        doc = natural.main([str(data), "--json", str(tmp_path / "r.json")] + ["--one-by-one"] * one_by_one, model=model)
        assert doc["summary"]["all"] == {"n": 1, "right": 1} and doc["seconds"]["adds"] == 1 + one_by_one
        records_per_prompt[one_by_one] = max(p.count("\nRecord: Mara") for p in model.prompts)
    assert records_per_prompt == {False: 2, True: 1}  # one batch of both records, or one add each


def test_the_everyday_set_is_well_formed():
    head, scenarios = natural.read(common.REPO / "bench" / "data" / "everyday.json")
    assert head["name"] == "everyday" and len(scenarios) == 797
    questions = [q for s in scenarios for q in s["questions"]]
    assert len(questions) == 851 and {q["kind"] for q in questions} == set(head["kinds"])
    assert all(s["block"] in head["blocks"] and s["records"] and s["questions"] for s in scenarios)
    assert all(isinstance(r, str) and r.strip() for s in scenarios for r in s["records"])
    assert all(q["q"].strip() and q["answers"] and all(a.strip() for a in q["answers"]) for q in questions)
    assert len({s["name"] for s in scenarios}) == len(scenarios)


# ── natural and locomo ──

def test_natural_counts_a_stale_value_only_beside_its_update_questions():
    past = natural.past_values({"questions": [{"q": "Before?", "answers": ["Tollgate"], "kind": "past_value"},
                                              {"q": "Now?", "answers": ["Harrowby Fitness"], "kind": "update"}]})
    assert past == ["Tollgate"]
    q = {"q": "Which gym do I go to?", "answers": ["Harrowby Fitness"], "kind": "update"}
    left = [{"serial": 3, "text": "Cancelled Tollgate. Signed up at Harrowby Fitness instead."}]
    old = [{"serial": 1, "text": "I go to Tollgate Gym."}] + left
    assert natural.predict("gym", q, "Harrowby Fitness", left, past, 0.1)["stale_shown"] is True
    assert natural.predict("gym", q, "Harrowby Fitness", left, past, 0.1)["stale_record_shown"] is False
    row = natural.predict("gym", q, "Tollgate", old, past, 0.1)
    assert (row["correct"], row["answer_in_evidence"], row["stale_record_shown"], row["evidence"]) == (False, True, True, [1, 3])
    asked_before = natural.predict("gym", {**q, "kind": "past_value"}, "x", old, past, 0.1)
    assert "stale_shown" not in asked_before
    doc = natural.summarise([row, asked_before], [{"records": 2, "statuses": ["facts", "no_fact"], "seconds": 5.0},
                                                  {"records": 1, "statuses": ["facts"], "seconds": 1.0},
                                                  {"records": 1, "statuses": ["pending"], "seconds": 3.0}])
    assert doc["results"][0] == {"kind": "all", "n": 2, "right": 0, "accuracy": 0.0, "answer_in_evidence": 1.0}
    assert doc["stale_shown"] == {"update_questions_with_past_value": 1, "stale_shown": 1, "stale_record_shown": 1,
                                  "stale_current_shown": 1}
    assert (doc["seconds"]["add_first"], doc["seconds"]["add_warm_median"]) == (5.0, 2.0)
    assert doc["extraction"] == {"facts": 2, "no_fact": 1, "pending": 1}


def test_natural_adds_one_record_at_a_time_and_asks_every_question(tmp_path):
    scenarios = [{"name": "gym", "records": ["I go to Tollgate Gym.", "thanks!", "I switched to Harrowby Fitness."],
                  "questions": [{"q": "Which gym do I go to?", "answers": ["Harrowby Fitness"], "kind": "update"},
                                {"q": "Which gym did I use before?", "answers": ["Tollgate"], "kind": "past_value"}]},
                 {"name": "other", "records": ["Mara lives in Leeds."],
                  "questions": [{"q": "Where does Mara live?", "answers": ["Leeds"], "kind": "simple"}]}]
    data = tmp_path / "nat.json"
    data.write_text(json.dumps(scenarios))
    out = tmp_path / "nat-results.json"
    doc = natural.main([str(data), "--one-by-one", "--only", "gym", "--json", str(out),
                        "--predictions", str(tmp_path / "nat.jsonl")], model=FakeModel(default=lambda p: "unknown"))
    assert json.loads(out.read_text()) == doc
    assert (doc["scenarios"], doc["seconds"]["adds"], doc["seconds"]["asks"]) == (1, 3, 2)
    assert sum(doc["extraction"].values()) == 3
    lines = [json.loads(l) for l in (tmp_path / "nat.jsonl").read_text().splitlines()]
    assert [l["q"] for l in lines] == ["Which gym do I go to?", "Which gym did I use before?"]
    assert natural.default_json(data, natural.parser().parse_args([str(data), "--cli", "--model", "qwen"])).name \
        == "natural-nat-cli-batch-qwen.json"


def test_natural_read_all_hands_the_reader_every_record(tmp_path):
    scenarios = [{"name": "gym", "records": ["I go to Tollgate Gym.", "thanks!", "I switched to Harrowby Fitness."],
                  "questions": [{"q": "Which gym do I go to?", "answers": ["Harrowby Fitness"], "kind": "update"}]}]
    data = tmp_path / "nat.json"
    data.write_text(json.dumps(scenarios))
    prompts = []
    fake = FakeModel(default=lambda p: prompts.append(p) or "Harrowby Fitness")
    doc = natural.main([str(data), "--one-by-one", "--read-all", "--json", str(tmp_path / "r.json"),
                        "--predictions", str(tmp_path / "r.jsonl")], model=fake)
    assert doc["view"] == "every record" and doc["results"][0]["right"] == 1
    row = json.loads((tmp_path / "r.jsonl").read_text())
    assert row["evidence"] == [1, 2, 3]
    assert all(text in prompts[-1] for text in ("Tollgate Gym", "thanks!", "Harrowby Fitness."))


def test_locomo_reads_turns_dates_and_gold_ids():
    assert locomo.session_time("1:56 pm on 8 May, 2023") == "2023-05-08T13:56:00"
    assert locomo.session_time("12:09 am on 13 September, 2023") == "2023-09-13T00:09:00"
    conversation = {"speaker_a": "Ann", "speaker_b": "Bo",
                    "session_10_date_time": "9:00 am on 2 June, 2023", "session_10": [{"speaker": "Bo", "dia_id": "D10:1", "text": "Later."}],
                    "session_2_date_time": "1:56 pm on 8 May, 2023",
                    "session_2": [{"speaker": "Ann", "dia_id": "D2:1", "text": "Look!", "img_url": ["x"],
                                   "blip_caption": "a photo of a dog"}]}
    assert locomo.turns(conversation) == [
        {"dia_id": "D2:1", "text": "Ann: Look! [shares a photo: a photo of a dog]", "time": "2023-05-08T13:56:00"},
        {"dia_id": "D10:1", "text": "Bo: Later.", "time": "2023-06-02T09:00:00"}]
    assert locomo.gold_ids(["D8:6; D9:17", "D:11:26", "D", "D8:6"]) == ["D8:6", "D9:17", "D11:26"]


def test_locomo_scores_f1_and_cuts_bm25_to_the_evidence_size():
    assert locomo.token_f1("The adoption agencies.", "adoption agencies") == 1.0
    assert locomo.token_f1("adoption", "adoption agencies") == pytest.approx(2 / 3)
    assert locomo.token_f1("nothing", "adoption agencies") == 0.0
    bm25 = locomo.Bm25([(1, "Ann: I adopted a dog."), (2, "Bo: The weather is fine."), (3, "Ann: The dog is called Rex, a dog.")])
    assert bm25.search('Which "dog"?', 1000) == [3, 1]
    assert bm25.search("Which dog?", len("Ann: The dog is called Rex, a dog.") + 1) == [3]
    assert bm25.search("?", 1000) == []
    assert locomo.found([1, 2], [2, 5]) == (False, 0.5) and locomo.found([], [1]) == (None, None)


def test_locomo_resumes_a_prefix_and_refuses_other_turns(tmp_path):
    turns = [{"dia_id": f"D1:{i}", "text": f"Ann: line {i}.", "time": "2023-05-08T13:56:00"} for i in (1, 2, 3)]
    times = locomo.records_take_time()
    with cmc.Memory(tmp_path / "c.db") as m:
        assert locomo.ingest(m, "c", turns[:2], False, times) == {"D1:1": 1, "D1:2": 2}
        assert locomo.ingest(m, "c", turns, False, times) == {"D1:1": 1, "D1:2": 2, "D1:3": 3}
        with pytest.raises(SystemExit, match="--fresh"):
            locomo.ingest(m, "c", [{**turns[0], "text": "Ann: other."}] + turns[1:], False, times)
        with pytest.raises(SystemExit, match="record times"):
            locomo.ingest(m, "c", turns, False, not times)


def test_locomo_recall_run_on_a_tiny_conversation(tmp_path):
    if not hasattr(cmc.Memory, "recall"):
        pytest.skip("this cmc has no Memory.recall")
    session = [{"speaker": "Ann", "dia_id": f"D1:{i}", "text": t} for i, t in enumerate(
        ["I adopted a dog called Rex.", "The weather is fine today.", "Rex loves the beach."], 1)]
    data = tmp_path / "lc.json"
    data.write_text(json.dumps([{"sample_id": "c1", "conversation": {
        "speaker_a": "Ann", "speaker_b": "Bo", "session_1_date_time": "1:56 pm on 8 May, 2023", "session_1": session},
        "qa": [{"question": "What is the name of Ann's dog?", "answer": "Rex", "evidence": ["D1:1"], "category": 4},
               {"question": "What did Bo adopt?", "adversarial_answer": "a cat", "evidence": ["D1:1"], "category": 5}]}]))
    out = tmp_path / "lc-results.json"
    doc = locomo.main(["--data", str(data), "--out-dir", str(tmp_path), "--json", str(out),
                       "--predictions", str(tmp_path / "lc.jsonl")])
    assert json.loads(out.read_text()) == doc
    assert [r["category"] for r in doc["results"]] == ["4", "5", "1-4"]
    assert doc["ingest"]["c1"]["status"] == {"pending": 3}
    first = json.loads((tmp_path / "lc.jsonl").read_text().splitlines()[0])
    assert first["gold_serials"] == [1] and 1 in first["bm25_evidence"]
    assert first["cmc_recall"] == (1 in first["cmc_evidence"])
    # --every 2 --offset 1: the other half of the questions
    other = locomo.main(["--data", str(data), "--out-dir", str(tmp_path), "--json", str(tmp_path / "lc-2.json"),
                         "--every", "2", "--offset", "1"])
    assert [r["category"] for r in other["results"]] == ["5"] and other["offset"] == 1


def test_statuses_asks_the_judge_as_add_does_and_reads_the_line_as_extraction_does():
    import statuses
    model = FakeModel(default=lambda prompt: '{"status": "facts", "triples": []}')
    judge = FakeModel(default=lambda prompt: '{"status": "no_fact", "triples": []}')
    line = "Ysolde: Next week the choir meets in the chapel."
    assert statuses.status(model, line, judge) == "no_fact" and not model.prompts
    assert judge.prompts[-1].rstrip().endswith("Record: the choir meets in the chapel.\nJSON:")
    assert statuses.status(model, line) == "facts"
