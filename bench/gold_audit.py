"""Where FactConsolidation's gold answers are, from each question's anchors: model-free.

    python bench/gold_audit.py --json bench/results/gold_audit.json
    python bench/results.py     # then regenerate docs/results.md from the JSONs

For every question, on the frozen extraction bench/factconsolidation.py made (bench/out/fc_<length>.db),
the gold string (whole words, as the harness's answer-in-evidence) is looked for in:

- `current`: cmc's rendered evidence (anchors, the 5-hop walk over the current graph, the
  60,000-character rule), before the reader's budget;
- `superseded_only`: otherwise, the records of a 5-hop walk from the same anchors over every
  assertion, superseded ones included: the gold chain runs through a fact a later record
  overwrote, so a read that resolves updates cannot show it from these anchors;
- `unreachable`: neither (an anchor or extraction miss, or a gold the records never link).

So `current` + `unreachable` bounds what better anchoring or extraction could add while updates
are resolved. The results page shows the JSON (bench/results.py).
"""
import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402
import factconsolidation  # noqa: E402
from common import cmc  # noqa: E402

OUT = common.RESULTS / "gold_audit.json"
CLASSES = ("current", "superseded_only", "unreachable")
ALL_VERSIONS = "SELECT a.object_key, a.serial FROM assertions AS a WHERE a.subject_key = ?"


def any_version_texts(db, anchors: list[str], texts: dict[int, str]) -> str:
    """Record texts of a breadth-first walk of cmc.MAX_HOPS hops over every assertion."""
    frontier, seen, serials = list(anchors), set(anchors), set()
    for _ in range(cmc.MAX_HOPS):
        following = []
        for key in frontier:
            for obj, serial in db.execute(ALL_VERSIONS, (key,)):
                serials.add(serial)
                if obj not in seen:
                    seen.add(obj)
                    following.append(obj)
        frontier = following
    return "\n".join(texts[s] for s in serials if s in texts)


KEY_FORMS = """
SELECT a.subject_key, a.relation, a.subject, a.object, r.text FROM assertions AS a JOIN records AS r USING (serial)
"""


def mixed_form_keys(db) -> int:
    """(subject, relation) keys whose assertions come from records of more than one sentence
    form (each record with its subject and object replaced): where an update may be another
    relation's value."""
    forms = {}
    for key, rel, s, o, text in db.execute(KEY_FORMS):
        forms.setdefault((key, rel), set()).add(text.replace(s, "<S>").replace(o, "<O>"))
    return sum(len(f) > 1 for f in forms.values())


def audit(data: Path, subsets: list[str], limit: int | None) -> dict:
    _, items = factconsolidation.load(data, subsets, limit)
    counts, dbs, texts = Counter(), {}, {}
    for it in items:
        path = common.OUT / f"fc_{it.db}.db"
        if it.db not in dbs:
            if not path.is_file():
                sys.exit(f"No frozen extraction at {common.shown(path)}: run bench/factconsolidation.py "
                         f"--subsets {it.subset} first.")
            dbs[it.db] = cmc.open_db(path)
            texts[it.db] = dict(dbs[it.db].execute("SELECT serial, text FROM records"))
        db = dbs[it.db]
        read = cmc.recall(db, it.question)
        anchors = read.anchors
        if common.answer_in(read.text, it.golds):
            kind = "current"
        elif common.answer_in(any_version_texts(db, anchors, texts[it.db]), it.golds):
            kind = "superseded_only"
        else:
            kind = "unreachable"
        for group in (it.subset, it.subset.split("_")[0]):
            counts[group, kind] += 1
            counts[group, "n"] += 1
    groups = [s for s in subsets] + [h for h in ("sh", "mh") if any(s.startswith(h) for s in subsets)]
    rows = [{"subset": g, "n": counts[g, "n"], **{c: counts[g, c] for c in CLASSES}} for g in groups]
    mixed = {key: mixed_form_keys(db) for key, db in dbs.items()}
    return {"results": rows, "mixed_form_keys": mixed, "commit": common.commit(), "command": " ".join(["python bench/gold_audit.py", *sys.argv[1:]])}


def main(argv: list[str] | None = None) -> dict:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--data", type=Path, default=factconsolidation.DATA)
    p.add_argument("--subsets", default=",".join(factconsolidation.SUBSETS))
    p.add_argument("--limit", type=int, default=None, help="first N questions of each subset")
    p.add_argument("--json", type=Path, default=None, help=f"write the counts (e.g. {common.shown(OUT)})")
    args = p.parse_args(argv)
    doc = audit(args.data, [s for s in args.subsets.split(",") if s], args.limit)
    for r in doc["results"]:
        print(f"{r['subset']:>8}  n {r['n']:4d}  " + "  ".join(f"{c} {r[c]:4d}" for c in CLASSES))
    print("keys stated in more than one sentence form:", doc["mixed_form_keys"])
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(doc, indent=1) + "\n")
    return doc


if __name__ == "__main__":
    main()
