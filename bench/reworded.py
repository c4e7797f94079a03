"""Reworded FactConsolidation: the same facts in other words, to check that extraction and
answering do not depend on the benchmark's sentence templates.

    python bench/reworded.py build [--data PATH] [--out bench/out/reworded/Conflict_Resolution.json]

build reads a MemoryAgentBench Conflict_Resolution.json (default: the shared copy
bench/factconsolidation.py reads) and writes a copy in the same format (same rows, questions,
answers and metadata; JSON written as the shared file is) in which every fact line that a known
MQuAKE cloze template explains ("{} is a citizen of" + object, found as bench/extraction.py finds
them) is rewritten with the hand-written wording of the same relation in REWORDINGS below: the
subject and the object are kept verbatim, the rest of the sentence is new, and about a third of
the wordings name the object first. Lines no template explains, the "Here is a list of facts:"
header and the "N. " numbering stay exactly as they are. The sh and mh rows of a length share one
context, so they stay identical to each other.

Beside the copy it writes <stem>.gold.json, the true arguments of every reworded line per
history length: {"histories": {"6k": {"lines", "reworded", "unreworded", "gold": [{"line",
"text", "subject", "object", "template", "first"}]}}, "rewordings", "templates_used", ...}, where
"first" says which argument the new sentence names first ("subject" or "object").
bench/extraction.py --data picks it up to score the reworded lines:

    CMC_THREADS=1 python bench/extraction.py --lengths 6k --data bench/out/reworded/Conflict_Resolution.json
    CMC_THREADS=1 python bench/factconsolidation.py --data bench/out/reworded/Conflict_Resolution.json \\
        --out-dir bench/out/reworded --subsets sh_6k,mh_6k --views cmc --limit 5

build refuses a template that occurs in the histories but has no rewording here, and checks every
new line: both arguments verbatim, not the original text, and explained by no MQuAKE template.
"""

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402
import extraction  # noqa: E402

DATA = extraction.FC
OUT = common.OUT / "reworded" / "Conflict_Resolution.json"
FACT_LINE = re.compile(r"(\d+)\. (.+)")  # as bench/factconsolidation.py's fact_lines reads them

# MQuAKE cloze template -> the same relation in other words ({s} subject, {o} object, verbatim).
# Subject first (active paraphrase, possessive, passive, fronted phrase) or object first; object
# first only where the objects are names, so no sentence starts with a common noun.
REWORDINGS = {
    "{} is a citizen of": "{s} holds citizenship of {o}.",
    "{} is associated with the sport of": "The sport of {s} is {o}.",
    "{} is affiliated with the religion of": "{o} is the religion of {s}.",
    "The author of {} is": "{s} was written by {o}.",
    "{} plays the position of": "{s}'s playing position is {o}.",
    "{} was created in the country of": "{o} is the country where {s} was created.",
    "{} was created by": "{s} is a creation of {o}.",
    "{} is married to": "{s}'s spouse is {o}.",
    "{} was founded by": "{s} has {o} as its founder.",
    "The headquarters of {} is located in the city of": "{s} is headquartered in {o}.",
    "{} was developed by": "{o} is the developer of {s}.",
    "The type of music that {} plays is": "The musical genre of {s} is {o}.",
    "{} was performed by": "{o} performed {s}.",
    "The univeristy where {} was educated is": "{s} studied at {o}.",
    "{} was born in the city of": "{o} is the birthplace of {s}.",
    "{} died in the city of": "{s} passed away in {o}.",
    "{} is employed by": "{o} employs {s}.",
    "The company that produced {} is": "{s} is a product of {o}.",
    "The origianl broadcaster of {} is": "{s} originally aired on {o}.",
    "{} is located in the continent of": "{s} lies on the continent of {o}.",
    "The capital of {} is": "{o} is the capital city of {s}.",
    "{} is famous for": "{s} is best known for {o}.",
    "The official language of {} is": "In {s}, the official language is {o}.",
    "{} works in the field of": "{s}'s occupation is {o}.",
    "The name of the current head of the {} government is": "{o} leads the {s} government.",
    "The chairperson of {} is": "{o} chairs {s}.",
    "The chief executive officer of {} is": "{s}'s CEO is {o}.",
    "The head coach of {} is": "{s} is coached by {o}.",
    "{}'s child is": "{s} is the parent of {o}.",
    "The director of {} is": "{o} directs {s}.",
    "{} speaks the language of": "{s} is a speaker of {o}.",
    "{} worked in the city of": "{s} held a job in {o}.",
    "{} was written in the language of": "{o} is the language of {s}.",
    "{} was founded in the city of": "{o} is the city where {s} was founded.",
    "The name of the current head of state in {} is": "{o} is the head of state of {s}.",
    "The original language of {} is": "{s} was originally made in {o}.",
}


def first_argument(wording: str) -> str:
    """'subject' or 'object': which argument a wording names first."""
    return "subject" if wording.index("{s}") < wording.index("{o}") else "object"


def check_rewordings() -> None:
    for template, wording in REWORDINGS.items():
        if template.count("{}") != 1 or wording.count("{s}") != 1 or wording.count("{o}") != 1:
            raise SystemExit(f"rewording of {template!r} must have one {{}} and one {{s}} and {{o}}: {wording!r}")


def reword(line: str, pats) -> dict | None:
    """The reworded line and its true arguments, or None when no template explains line."""
    explained = extraction.explain(line, pats)
    if explained is None:
        return None
    template, subject, obj = explained
    if template not in REWORDINGS:
        raise SystemExit(f"no rewording for the template {template!r} (line {line!r}): add one to REWORDINGS")
    wording = REWORDINGS[template]
    return {"text": _fill(wording, subject, obj), "subject": subject, "object": obj, "template": template,
            "first": first_argument(wording)}


def _fill(wording: str, subject: str, obj: str) -> str:
    """The wording with {s} and {o} replaced in one pass (an argument may itself hold '{o}')."""
    return re.sub(r"\{[so]\}", lambda m: subject if m[0] == "{s}" else obj, wording)


def reword_context(context: str, pats) -> tuple[str, list[dict], int]:
    """The context with its explained fact lines reworded; the gold of those lines; the number
    of fact lines left as they were."""
    lines = context.split("\n")
    out, gold, kept, n = lines[:1], [], 0, 0
    for raw in lines[1:]:
        if not raw.strip():
            out.append(raw)
            continue
        m = FACT_LINE.fullmatch(raw)
        if not m or int(m[1]) != n:
            raise SystemExit(f"Unexpected fact line {raw!r}: expected '{n}. <fact>'.")
        r = reword(m[2], pats)
        if r is None:
            kept += 1
            out.append(raw)
        else:
            check_line(m[2], r, pats)
            gold.append({"line": n, **r})
            out.append(f"{m[1]}. {r['text']}")
        n += 1
    return "\n".join(out), gold, kept


def check_line(original: str, r: dict, pats) -> None:
    text = r["text"]
    if text == original:
        raise SystemExit(f"rewording left {original!r} as it was")
    if r["subject"] not in text or r["object"] not in text:
        raise SystemExit(f"rewording of {original!r} lost an argument: {text!r}")
    if (again := extraction.explain(text, pats)) is not None:
        raise SystemExit(f"rewording {text!r} of {original!r} is still the MQuAKE template {again[0]!r}")


def build(data: Path, out: Path) -> dict:
    check_rewordings()
    if out.resolve() in (data.resolve(), DATA.resolve()):
        raise SystemExit(f"--out {out} would overwrite the benchmark's own file")
    pats = [(t, extraction.template_pattern(t)) for t in extraction.template_strings()]
    if not pats:
        raise SystemExit(f"no MQuAKE templates found in {', '.join(map(str, extraction.TEMPLATE_SOURCES))}")
    rows = json.loads(data.read_text(encoding="utf-8"))
    histories: dict[str, dict] = {}
    contexts: dict[str, str] = {}  # original context -> reworded, so sh and mh rows stay identical
    used: Counter = Counter()
    for row in rows:
        source = row["metadata"]["source"]
        length = source.rsplit("_", 1)[1]
        if row["context"] not in contexts:
            new, gold, kept = reword_context(row["context"], pats)
            contexts[row["context"]] = new
            if length in histories:
                raise SystemExit(f"The {length} rows of {data} do not share one context.")
            histories[length] = {"lines": len(gold) + kept, "reworded": len(gold), "unreworded": kept,
                                 "gold": gold}
            used.update(g["template"] for g in gold)
        elif length not in histories:
            raise SystemExit(f"{source} shares its context with another length")
        row["context"] = contexts[row["context"]]
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(rows, indent=2, ensure_ascii=False), encoding="utf-8")
    doc = {"data": common.shown(out), "source": common.shown(data),
           "command": "python bench/reworded.py build --data " + common.shown(data) + " --out " + common.shown(out),
           "rewordings": REWORDINGS,
           "templates_used": dict(sorted(used.items(), key=lambda kv: (-kv[1], kv[0]))),
           "templates_unused": sorted(set(REWORDINGS) - set(used)),
           "histories": histories}
    gold_path = extraction.sidecar(out)
    gold_path.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    common.log(f"wrote {out} and {gold_path}")
    return doc


def parser() -> argparse.ArgumentParser:
    p = common.parser(__doc__)
    sub = p.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="write the reworded copy and its gold sidecar")
    b.add_argument("--data", type=Path, default=DATA, help="Conflict_Resolution.json (default: the shared copy)")
    b.add_argument("--out", type=Path, default=OUT, help=f"default: {common.shown(OUT)}")
    return p


def main(argv: list[str] | None = None) -> dict:
    args = common.arguments(parser(), argv)
    doc = build(args.data, args.out)
    print(f"{'length':8} {'lines':>6} {'reworded':>9} {'unreworded':>11}")
    for length, h in doc["histories"].items():
        print(f"{length:8} {h['lines']:>6} {h['reworded']:>9} {h['unreworded']:>11}")
    print(f"{len(doc['templates_used'])} templates reworded"
          + (f"; {len(doc['templates_unused'])} rewordings unused" if doc["templates_unused"] else ""))
    return doc


if __name__ == "__main__":
    main()
