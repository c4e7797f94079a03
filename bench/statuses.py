"""The status `add` gives (facts / unresolved / no_fact) to lines whose status a person decided:
natural-dev's chat and note filler lines (no fact), a fixed sample of its fact records, and the
first 50 turns of LoCoMo conv-26 split by hand into 22 greeting / praise / question turns and 28
turns that tell something.

    python bench/statuses.py --json bench/results/statuses.json     # as `add` by default
    python bench/statuses.py --judge none --json bench/results/statuses-no-judge.json
    python bench/results.py

Only the status is chosen (cmc.choose_status, the first choice of cmc.decode_extraction, with the
same allowed statuses), by the judge `add` uses (cmc.judge_name(): Qwen2.5-Coder-1.5B when
installed), or with --judge none by the extraction model; no triple is read. Each line is read
as extraction reads it: less the speaker label (as cmc.said_by) and an opening time phrase
(cmc.fact_text), alone in the extraction prompt.
"""
import argparse
import json
import random
import re
import shlex
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402
import locomo  # noqa: E402
from common import cmc  # noqa: E402

NATURAL = common.REPO.parent / "shared" / "data" / "natural-dev"
# conv-26's first 50 turns that tell nothing (greetings, praise, thanks, questions), by hand
NO_FACT_TURNS = {1, 4, 6, 8, 10, 13, 15, 20, 22, 24, 27, 29, 31, 33, 35, 37, 39, 41, 43, 44, 47, 50}
FACT_SAMPLE = 60
SPEAKER = re.compile(r"^\s*(\[[^\]]{6,40}\]\s*)?[A-Z][\w'’.-]*(?: [A-Z][\w'’.-]*){0,2}:\s+")  # "[date] Name: "


def line_sets() -> dict[str, list[str]]:
    source = (NATURAL / "build_natural_dev.py").read_text()
    names: dict = {}
    exec(source[source.index("CHAT_FILL ="):source.index("class Cyc")], names)  # two list literals
    filler = sorted(set(names["CHAT_FILL"]) | set(names["NOTE_FILL"]))
    scenarios = json.loads((NATURAL / "natural-dev.json").read_text())
    facts = sorted({r for s in scenarios if not s["name"].startswith("noisy") for r in s["records"]} - set(filler))
    random.Random(0).shuffle(facts)
    (sample,) = locomo.load(locomo.DATA, "conv-26")
    turns = [t["text"] for t in locomo.turns(sample["conversation"])[:50]]
    return {"filler lines (no fact)": filler, "fact records": facts[:FACT_SAMPLE],
            "turns that tell nothing": [t for i, t in enumerate(turns, 1) if i in NO_FACT_TURNS],
            "turns that tell something": [t for i, t in enumerate(turns, 1) if i not in NO_FACT_TURNS]}


def status(model, text: str, judge=None) -> str:
    """The status cmc gives the line: read as extraction reads it (fact_text), chosen by the
    judge when there is one (cmc.choose_status), else by the extraction model."""
    body = cmc.fact_text(SPEAKER.sub("", text))
    return cmc.choose_status(model, cmc.extraction_prompt([body], []), body, cmc.record_spans(body), judge)


def main(argv: list[str] | None = None) -> dict:
    argv = sys.argv[1:] if argv is None else argv
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--model", help="GGUF path or 'gemma' / 'qwen' (default: the embedded gemma)")
    p.add_argument("--judge", help="the model that chooses the status: 'none' (the extraction model), 'gemma', "
                                    "'qwen' or a GGUF path (default: the judge `add` uses, cmc.judge_name())")
    p.add_argument("--json", default=str(common.RESULTS / "statuses.json"))
    args = p.parse_args(argv)
    model = cmc.load_model(args.model)
    judge = cmc.load_judge(args.judge or cmc.judge_name())
    counts = {name: dict(Counter(status(model, t, judge) for t in lines)) for name, lines in line_sets().items()}
    document = {"benchmark": "statuses", "counts": counts, "model": model.name,
                "judge": judge.name if judge else None, "commit": common.commit(),
                "command": shlex.join(["python", "bench/statuses.py", *argv]), "date": time.strftime("%Y-%m-%d")}
    common.write_outputs(Path(args.json), None, document, [])
    for name, c in counts.items():
        print(f"{name:28} {c}")
    return document


if __name__ == "__main__":
    main()
