"""An agent's pattern: one process that adds a record, asks a question, adds, asks, ... (as the
MCP server does), with the default models (gemma extracts; Qwen, when installed, judges and
answers). Every switch between the extraction, judge and answer prompts needs the new prompt's
fixed part in the model's KV cache; this measures the seconds per `add` and per `ask` it costs.

    python bench/interleaved.py --json bench/results/interleaved.json

The first add and the first ask of the process are reported apart (they load the models).
"""
import argparse
import json
import shlex
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402
from common import cmc  # noqa: E402

# invented records, each followed by a question about it or an earlier one
PAIRS = [("Odile keeps her kayak at the north jetty.", "Where does Odile keep her kayak?"),
         ("My dentist is Dr Harrow on Fenn Street.", "Who is my dentist?"),
         ("Odile moved her kayak to the south jetty.", "Where is Odile's kayak now?"),
         ("The book club meets on the first Tuesday.", "When does the book club meet?"),
         ("I switched dentists to Dr Quill.", "Who is my dentist?"),
         ("Our wifi password is tern-4471.", "What is the wifi password?"),
         ("Book club moved to Thursdays.", "When does the book club meet?")]


def main(argv: list[str] | None = None) -> dict:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--json", type=Path, default=None)
    args = p.parse_args(argv)
    adds, asks, answers = [], [], []
    with tempfile.TemporaryDirectory() as folder, cmc.Memory(Path(folder) / "m.db") as memory:
        for record, question in PAIRS:
            started = time.perf_counter()
            memory.add(record)
            adds.append(time.perf_counter() - started)
            started = time.perf_counter()
            answers.append(memory.ask(question).answer)
            asks.append(time.perf_counter() - started)
            print(f"add {adds[-1]:.2f} s  ask {asks[-1]:.2f} s  {question} -> {answers[-1]!r}", flush=True)
        models = {"extractor": memory.model.name, "reader": memory.reader.name,
                  "judge": memory.judge.name if memory.judge else "none"}
    doc = {"benchmark": "interleaved", "command": shlex.join(["python", "bench/interleaved.py", *(argv or sys.argv[1:])]),
           "commit": common.commit(), "date": time.strftime("%Y-%m-%d"), **models,
           "first_add_s": round(adds[0], 3), "first_ask_s": round(asks[0], 3),
           "add_median_s": round(statistics.median(adds[1:]), 3), "ask_median_s": round(statistics.median(asks[1:]), 3),
           "adds_s": [round(x, 3) for x in adds], "asks_s": [round(x, 3) for x in asks], "answers": answers}
    print(f"add median {doc['add_median_s']} s, ask median {doc['ask_median_s']} s (after the first of each)")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(doc, indent=1))
    return doc


if __name__ == "__main__":
    main()
