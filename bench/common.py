"""Shared pieces of the benchmark harnesses: ingest a history once, build each evidence view,
call the reader once per question and view, score, aggregate, write the JSON; and the command
line their main() functions have in common.

Views (every one rendered under READER_BUDGET, what `cmc ask` hands its reader; newest contiguous
suffix kept):
  cmc                 cmc's own read (cmc.recall): the graph read and the window read merged.
  prior-read-refresh  paper Appendix G: every (subject, relation) key gets a constructed prior
                      value (its most recent earlier assertion with a different object, else the
                      current one); traverse that prior graph from the same anchors, then replace
                      each selected key's value by its current assertion and render those records.
  stale-closure       cmc's selected keys, each with its previous value (most recent earlier
                      assertion with a different object) where one exists.
  fact-bm25           the top 100 current facts (records holding a current edge) by FTS5 bm25 of
                      their text against the question's words.
  fact-bm25-matched   the same ranking packed, in rank order, into cmc's evidence length for that
                      question (first fit: a fact that does not fit is skipped, the next is tried).
  latest-state        every current fact.
  raw-history         every record.
Every parsed view (all but raw-history) also renders the unresolved records, as cmc does.

The reader is cmc.answer for every view: the same prompt, one call, free text grounded in the
view's evidence (READER_BUDGET characters, the newest records kept on overflow).
"""

import argparse
import itertools
import json
import os
import re
import string
import subprocess
import sys
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
import cmc  # noqa: E402

SHARED = REPO.parent / "shared"
OUT = REPO / "bench" / "out"
RESULTS = REPO / "bench" / "results"
VIEWS = ("cmc", "prior-read-refresh", "stale-closure", "fact-bm25", "fact-bm25-matched",
         "latest-state", "raw-history")
BM25_TOP = 100


# ── scoring ────  MemoryAgentBench's substring exact match (utils/eval_other_utils.py)

def normalize_answer(text: str) -> str:
    """Lowercase, drop ASCII punctuation, drop the articles a/an/the, collapse whitespace."""
    text = text.lower()
    text = "".join(ch for ch in text if ch not in set(string.punctuation))
    text = re.sub(r"\b(a|an|the)\b", " ", text)
    return " ".join(text.split())


def parse_output(text: str, prefix: str = "Answer:") -> str | None:
    """The benchmark's parsed output: what follows 'Answer:' if present, else the first line."""
    for pattern in (re.compile(f"(?:{prefix})(.*)(?:\n|$)", re.IGNORECASE), re.compile(r"(?:^)(.*)(?:\n|$)")):
        m = pattern.search(text)
        if m:
            return re.sub(f"^{re.escape(prefix)}", "", m[1].strip(), flags=re.IGNORECASE).strip()
    return None


def substring_match(prediction: str, golds: list[str]) -> bool:
    norm = normalize_answer(prediction)
    return any(normalize_answer(g) in norm for g in golds if normalize_answer(g))


def score(prediction: str, golds: list[str]) -> bool:
    """Score the raw and the parsed output; keep the higher."""
    parsed = parse_output(prediction)
    return substring_match(prediction, golds) or (parsed is not None and substring_match(parsed, golds))


def answer_in(evidence_text: str, golds: list[str]) -> bool:
    """Some gold string occurs in the evidence as whole normalised words, each word allowed a
    plural or possessive s ("cat" is in "allergic to cats", "Pell" in "at Pell's"; "en" is not
    in "Bengaluru": short answer aliases would otherwise be found in almost any evidence)."""
    text = normalize_answer(evidence_text)
    for gold in filter(None, map(normalize_answer, golds)):
        words = r" ".join(re.escape(w) + "s?" for w in gold.split())
        if re.search(rf"(?<!\S){words}(?!\S)", text):
            return True
    return False


def count_tokens(model, prompt: str) -> int:
    """Tokens of the whole reader prompt as the model sees it (chat template included when the
    model uses one). Models without a tokenizer (test fakes) count whitespace words."""
    if hasattr(model, "count_tokens"):
        return model.count_tokens(prompt)
    if hasattr(model, "_tokens"):  # cmc.LlamaModel has no public tokenizer yet
        return len(model._tokens(prompt, ""))
    if hasattr(model, "llm"):
        return len(model.llm.tokenize(prompt.encode("utf-8"), add_bos=True, special=False))
    return len(prompt.split())


# ── ingest ─────  one database per history, extracted once, reused by every view and run

def stored_texts(db, prefix: str) -> dict[str, str]:
    rows = db.execute("SELECT source, text FROM records WHERE source >= ? AND source < ?",
                      (prefix, prefix + "\U0010ffff"))
    return {r[0]: r[1] for r in rows}


def ingest(db, lines: list[str], prefix: str, extractor, label: str) -> None:
    """Store lines as records with source PREFIX+index (skipping what is stored), then extract
    whatever is pending with cmc's own extraction; extractor() gives the model, loaded only if
    something is pending. Refuses a database built from other text."""
    stored = stored_texts(db, prefix)
    missing = []
    for i, line in enumerate(lines):
        source = f"{prefix}{i}"
        if source not in stored:
            missing.append((line, source))
        elif stored[source] != cmc.clean_record(line):
            raise SystemExit(f"{label}: record {source} holds other text than the data file; "
                             "delete the database and run again.")
    if missing:
        cmc.add_records(db, missing)
        log(f"{label}: stored {len(missing)} records")
    pending = db.execute("SELECT count(*) FROM records WHERE status = 'pending'").fetchone()[0]
    if not pending:
        return
    start, done = time.monotonic(), 0

    def progress(ex, *_):  # cmc also passes its ingest counters
        nonlocal done
        done += 1
        if done % 50 == 0 or done == pending:
            rate = (time.monotonic() - start) / done
            log(f"{label}: extracted {done}/{pending} ({rate:.2f} s/record)")

    model = extractor()
    cmc.extract_pending(db, model, on_record=progress)
    # cmc does not record which model extracted a file; the bench keeps it beside cmc's counters
    # (a resumed extraction by another model lists both).
    before = cmc.get_meta(db, EXTRACTED_WITH)
    names = before.split(" + ") if before else []
    with cmc.transaction(db):
        db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                   (EXTRACTED_WITH, " + ".join(dict.fromkeys([*names, model.name]))))


EXTRACTION_SUMMARY = """
SELECT (SELECT count(*) FROM records) AS records,
       (SELECT count(*) FROM records WHERE status = 'facts') AS facts,
       (SELECT count(*) FROM records WHERE status = 'unresolved') AS unresolved,
       (SELECT count(*) FROM records WHERE status = 'no_fact') AS no_fact,
       (SELECT count(*) FROM records WHERE status = 'pending') AS pending,
       (SELECT count(*) FROM assertions) AS assertions,
       (SELECT count(*) FROM current_edges) AS current_edges
"""
EXTRACTED_BY = """
SELECT CASE WHEN instr(extracted_by, ':') THEN substr(extracted_by, 1, instr(extracted_by, ':') - 1)
            ELSE extracted_by END AS how, count(*) FROM records GROUP BY how  -- 'rule:7' -> 'rule'
"""


EXTRACTED_WITH = "bench_extraction_model"


def extraction_summary(db) -> dict:
    """What the frozen extraction holds, which model made it, and how each record was extracted
    (model, rule, review, cache)."""
    summary = dict(db.execute(EXTRACTION_SUMMARY).fetchone())
    summary["model"] = cmc.get_meta(db, EXTRACTED_WITH, "unknown")
    summary["extracted_by"] = {r[0] or "unknown": r[1] for r in db.execute(EXTRACTED_BY)}
    return summary


def empty_evidence_tokens(model) -> int:
    """The reader prompt's floor: its tokens with no evidence record at all."""
    empty = cmc.Recall("", [], [], [], cmc.EVIDENCE_PREFIX)
    return count_tokens(model, cmc.answer_prompt(empty))


# ── views ──────  each returns a cmc.Recall: the anchors, the edges it presents, the evidence

Read = cmc.Recall
READER_BUDGET = cmc.ASK_BUDGET  # every view is read under what `cmc ask` hands its reader


def as_read(question: str, anchors: list[str], edges: list, rows: list[tuple[int, str]],
            budget: int = READER_BUDGET) -> cmc.Recall:
    """A view's records as cmc's reader gets them: source order, numbered, under the budget
    (the newest records kept on overflow)."""
    kept, used = [], len(cmc.EVIDENCE_PREFIX)
    for serial, text in sorted(rows, reverse=True):
        used += len(cmc._line(0, text))
        if used > budget:
            break
        kept.append((serial, text))
    kept.reverse()
    evidence = [{"serial": s, "time": "", "text": t, "why": "view"} for s, t in kept]
    text = cmc.EVIDENCE_PREFIX + "".join(cmc._line(n, t) for n, (_, t) in enumerate(kept, 1))
    return cmc.Recall(question, evidence, anchors, edges, text, len(kept) < len(rows))


# For each (subject, relation): its most recent earlier assertion whose object differs from the
# current one, else the current assertion (paper Appendix G's constructed prior value).
PRIOR_EDGES = """
SELECT e.subject_key, e.relation,
       coalesce(p.object_key, e.object_key) AS object_key,
       coalesce(p.serial, e.serial) AS serial,
       coalesce(p.id, e.assertion_id) AS assertion_id
FROM current_edges AS e
LEFT JOIN assertions AS p ON p.id = (
    SELECT a.id FROM assertions AS a
    WHERE a.subject_key = e.subject_key AND a.relation = e.relation AND a.object_key != e.object_key
      AND (a.serial < e.serial OR (a.serial = e.serial AND a.id < e.assertion_id))
    ORDER BY a.serial DESC, a.id DESC LIMIT 1)
"""
PRIOR_TABLE = """
CREATE TEMP TABLE IF NOT EXISTS prior_edges (
    subject_key TEXT NOT NULL, relation TEXT NOT NULL, object_key TEXT NOT NULL,
    serial INTEGER NOT NULL, assertion_id INTEGER NOT NULL,
    PRIMARY KEY (subject_key, relation)
) WITHOUT ROWID
"""
EDGES_WITH_TEXT = """
SELECT e.subject_key, e.relation, e.object_key, e.serial, a.subject, a.object
FROM {table} AS e JOIN assertions AS a ON a.id = e.assertion_id
"""
# The paper's forward closure: cmc's own walk with no hop read backwards, run over the prior
# graph (a temp table) instead of current_edges.
PRIOR_TRAVERSE = "WITH RECURSIVE" + cmc.WALK.format(
    edges="prior_edges", backwards="0", newest_values=cmc.NEWEST_VALUES.format(edges="prior_edges"))
UNRESOLVED = "SELECT serial FROM records WHERE status IN ('unresolved', 'pending')"  # as cmc.render adds
# Records ranked by bm25; ranked_facts keeps those holding a current edge. (Filtering inside the
# query, "rowid IN (SELECT serial FROM current_edges)", made SQLite rescan current_edges for every
# matching row: 13 s a question at 262K.)
FACT_BM25 = """
SELECT rowid FROM records_fts WHERE records_fts MATCH :query ORDER BY bm25(records_fts), rowid DESC
"""


def with_depths(anchors: list[str], edges: list[cmc.Edge]) -> list[cmc.Edge]:
    """Give a view's edges their breadth-first depth from the anchors within those edges, as
    cmc's traversal would (subject depths 0..4); edges it cannot reach get depth MAX_HOPS."""
    by_subject = defaultdict(list)
    for e in edges:
        by_subject[e.subject].append(e)
    depth: dict[int, int] = {}
    frontier, seen = list(dict.fromkeys(anchors)), set(anchors)
    for d in range(cmc.MAX_HOPS):
        following = []
        for subject in frontier:
            for e in by_subject.get(subject, ()):
                depth.setdefault(id(e), d)
                if e.object not in seen:
                    seen.add(e.object)
                    following.append(e.object)
        frontier = following
    out = [cmc.Edge(e.subject, e.relation, e.object, e.serial, depth.get(id(e), cmc.MAX_HOPS),
                    e.subject_text, e.object_text) for e in edges]
    return sorted(out, key=lambda e: (e.depth, e.serial))


class Views:
    """Every evidence view over one extracted database. Query-independent parts (the current and
    prior graphs, the record texts) are loaded once."""

    def __init__(self, db):
        self.db = db
        self.texts = {r[0]: r[1] for r in db.execute("SELECT serial, text FROM records")}
        self.unresolved = {r[0] for r in db.execute(UNRESOLVED)}
        self.current = self._edges("current_edges")
        self.current_serials = {e.serial for e in self.current.values()}
        db.execute(PRIOR_TABLE)  # a temp table: private to this connection, never in the file
        db.execute("DELETE FROM temp.prior_edges")
        db.execute("INSERT INTO temp.prior_edges " + PRIOR_EDGES)
        self.prior = self._edges("temp.prior_edges")
        self._cmc: dict[str, Read] = {}

    def _edges(self, table: str) -> dict[tuple[str, str], cmc.Edge]:
        rows = self.db.execute(EDGES_WITH_TEXT.format(table=table))
        return {(r[0], r[1]): cmc.Edge(r[0], r[1], r[2], r[3], 0, r[4], r[5]) for r in rows}

    def read(self, view: str, question: str) -> Read:
        return getattr(self, "view_" + view.replace("-", "_"))(question)

    def _rows(self, serials) -> list[tuple[int, str]]:
        return [(s, self.texts[s]) for s in sorted(set(serials) | set(self.unresolved))]

    def view_cmc(self, question: str) -> Read:
        if question not in self._cmc:
            self._cmc[question] = cmc.recall(self.db, question, budget=READER_BUDGET)
        return self._cmc[question]

    def view_prior_read_refresh(self, question: str) -> Read:
        anchors = cmc.anchor(self.db, question)
        walked = self.db.execute(PRIOR_TRAVERSE, {"starts": json.dumps([[a, 0] for a in anchors]),
                                                  "named": "[]", "cap": 0, "max_hops": cmc.MAX_HOPS}) \
            if anchors else []
        edges = []
        for r in walked:  # same keys, current values; the depth is where the prior walk found them
            cur = self.current[(r["subject_key"], r["relation"])]
            edges.append(cmc.Edge(cur.subject, cur.relation, cur.object, cur.serial, r["depth"],
                                  cur.subject_text, cur.object_text))
        return as_read(question, anchors, edges, self._rows(e.serial for e in edges))

    def view_stale_closure(self, question: str) -> Read:
        read = self.view_cmc(question)
        edges = []
        for e in read.edges:  # an edge read backwards is the fact of its object's key
            old = self.prior[(e.object, e.relation) if e.reverse else (e.subject, e.relation)]
            edges.append(cmc.Edge(e.subject, e.relation, old.object, old.serial, e.depth,
                                  old.subject_text, old.object_text))
        return as_read(question, read.anchors, edges, self._rows(e.serial for e in edges))

    def ranked_facts(self, question: str) -> list[int]:
        words = list(dict.fromkeys(cmc.words_of(question)))
        if not words:
            return []
        query = " OR ".join(f'"{w}"' for w in words)  # words_of leaves no quote or FTS5 syntax
        ranked = (r[0] for r in self.db.execute(FACT_BM25, {"query": query}))
        return list(itertools.islice((s for s in ranked if s in self.current_serials), BM25_TOP))

    def _fact_read(self, question: str, serials) -> Read:
        anchors = cmc.anchor(self.db, question)
        read = as_read(question, anchors, [], self._rows(serials))
        shown = {e["serial"] for e in read.evidence}
        read.edges = with_depths(anchors, [e for e in self.current.values() if e.serial in shown])
        return read

    def view_fact_bm25(self, question: str) -> Read:
        return self._fact_read(question, self.ranked_facts(question))

    def view_fact_bm25_matched(self, question: str) -> Read:
        budget = len(self.view_cmc(question).text)
        used = len(cmc.EVIDENCE_PREFIX) + sum(len(cmc._line(s, self.texts[s])) for s in self.unresolved)
        picked = []
        for serial in self.ranked_facts(question):
            size = len(cmc._line(serial, self.texts[serial]))
            if serial not in self.unresolved and used + size <= budget:
                picked.append(serial)
                used += size
        return self._fact_read(question, picked)

    def view_latest_state(self, question: str) -> Read:
        return self._fact_read(question, {e.serial for e in self.current.values()})

    def view_raw_history(self, question: str) -> Read:
        return as_read(question, cmc.anchor(self.db, question), [], list(self.texts.items()))


# ── evaluate ───  one reader call per question and view

@dataclass
class Item:
    id: str
    subset: str
    question: str
    golds: list[str]
    db: str  # key of the database the question is asked of


def evaluate(model, items: list[Item], views_by_db: dict, views: list[str]) -> list[dict]:
    """Every item under every view: one cmc.answer call each. Loops database, then view, then
    question, so a view whose evidence does not depend on the question reuses the model's cache."""
    predictions = []
    for key, v in views_by_db.items():
        mine = [it for it in items if it.db == key]
        for view in views:
            start = time.monotonic()
            for it in mine:
                read = v.read(view, it.question)
                ans = cmc.answer(model, read)
                predictions.append({
                    "id": it.id, "subset": it.subset, "view": view, "question": it.question,
                    "gold": it.golds, "prediction": ans.answer,
                    "correct": score(ans.answer, it.golds) or score(ans.raw, it.golds),
                    "answer_in_evidence": answer_in(read.text, it.golds),
                    "answer_in_rendered": answer_in(read.text, it.golds),
                    "input_tokens": count_tokens(model, cmc.answer_prompt(read)), "truncated": read.truncated,
                    "fallback": not read.anchors, "anchors": read.anchors,
                    "evidence": [e["serial"] for e in read.evidence], "hidden": read.hidden})
            if mine:
                log(f"{key} {view}: {len(mine)} questions in {time.monotonic() - start:.1f} s")
    return predictions


def aggregate(predictions: list[dict], groups) -> list[dict]:
    """One row per (view, group): groups maps a group name to the subsets it pools."""
    rows = []
    views = list(dict.fromkeys(p["view"] for p in predictions))
    for view in views:
        for group, subsets in groups.items():
            ps = [p for p in predictions if p["view"] == view and p["subset"] in subsets]
            if not ps:
                continue
            n = len(ps)
            rows.append({"view": view, "subset": group, "n": n,
                         "accuracy": round(sum(p["correct"] for p in ps) / n, 4),
                         "answer_in_evidence": round(sum(p["answer_in_evidence"] for p in ps) / n, 4),
                         "answer_in_rendered": round(sum(p.get("answer_in_rendered", False) for p in ps) / n, 4),
                         "mean_input_tokens": round(sum(p["input_tokens"] for p in ps) / n, 2),
                         "truncated": sum(p["truncated"] for p in ps)})
    return rows


def shown(path) -> str:
    """A path as the JSON records it: relative to the repository when inside it or beside it
    (../shared/...), so results read the same on every checkout."""
    path = Path(path).resolve()
    return os.path.relpath(path, REPO) if path.is_relative_to(REPO.parent) else str(path)


def commit() -> str:
    """HEAD of the repository when this process started (the code it runs), marked -dirty when
    cmc or the harness differed from it."""
    return _STARTED_AT


def _head() -> str:
    def git(*args):
        return subprocess.run(["git", "-C", str(REPO), *args], capture_output=True, text=True).stdout.strip()
    head = git("rev-parse", "HEAD") or "unknown"
    dirty = git("status", "--porcelain", "--", "cmc.py", "schema.sql", "prompts", "bench/*.py")
    return head + ("-dirty" if dirty else "")


_STARTED_AT = _head()


def write_outputs(path: Path | None, predictions_path: Path | None, document: dict,
                  predictions: list[dict]) -> None:
    for p, text in ((path, json.dumps(document, indent=1, ensure_ascii=False) + "\n"),
                    (predictions_path, "".join(json.dumps(p, ensure_ascii=False) + "\n" for p in predictions))):
        if p:
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(text)
            log(f"wrote {p}")


def write_results(args, document: dict, predictions: list[dict], json_default: Path | None = None,
                  predictions_default: Path | None = None) -> None:
    """Write the JSON to --json and the predictions to --predictions, each else to its default
    (None: not written)."""
    write_outputs(Path(args.json) if args.json else json_default,
                  Path(args.predictions) if args.predictions else predictions_default, document, predictions)


def print_table(rows: list[dict]) -> None:
    print(f"{'view':20} {'subset':8} {'n':>4} {'acc':>7} {'in-ev':>7} {'tokens':>8} {'trunc':>6}")
    for r in rows:
        print(f"{r['view']:20} {r['subset']:8} {r['n']:>4} {100 * r['accuracy']:>6.1f}% "
              f"{100 * r['answer_in_evidence']:>6.1f}% {r['mean_input_tokens']:>8.1f} {r['truncated']:>6}")


def parse_views(text: str | None, default=VIEWS) -> list[str]:
    views = [v.strip() for v in text.split(",")] if text else list(default)
    unknown = [v for v in views if v not in VIEWS]
    if unknown:
        raise SystemExit(f"Unknown view {', '.join(unknown)}; choose among {', '.join(VIEWS)}.")
    return views


# ── command line  the parser, model options and main() of the harnesses

def parser(doc: str) -> argparse.ArgumentParser:
    """A harness's parser, described by the first paragraph of its docstring as written."""
    return argparse.ArgumentParser(description=doc.split("\n\n")[0],
                                   formatter_class=argparse.RawDescriptionHelpFormatter)


def add_model_options(p: argparse.ArgumentParser) -> None:
    """--model and --answer-model as the views harnesses take them (read by Models)."""
    p.add_argument("--model", help="GGUF (or 'gemma' / 'qwen') that extracts, and reads unless --answer-model "
                   "(default: the embedded gemma-3-270m)")
    p.add_argument("--answer-model", help="GGUF (or 'gemma' / 'qwen') that reads (default: --model)")


def arguments(p: argparse.ArgumentParser, argv: list[str] | None) -> argparse.Namespace:
    """Parse argv (None: the command line), kept as args.argv for the command the JSON records."""
    argv = sys.argv[1:] if argv is None else argv
    args = p.parse_args(argv)
    args.argv = argv
    return args


def run_views(run, args: argparse.Namespace, model=None) -> dict:
    """Run a views harness, run(args, Models) -> its JSON document, and print its table; a cmc
    error ends it with its sentence. A test passes its own fake as model (reader and extractor)."""
    try:
        document = run(args, Models(args.model, args.answer_model, model))
    except cmc.CmcError as e:
        raise SystemExit(f"error: {e}")
    print_table(document["results"])
    return document


class Models:
    """The reader (--answer-model, else --model) and the extractor (--model), each loaded once and
    the extractor only when a database has records to extract. A test passes one fake for both."""

    def __init__(self, model_arg: str | None, answer_arg: str | None, given=None):
        self.model_arg, self.answer_arg, self.given = model_arg, answer_arg, given
        self._loaded: dict[str | None, object] = {}

    def _load(self, arg):
        if self.given is not None:
            return self.given
        if arg not in self._loaded:
            self._loaded[arg] = cmc.load_model(arg)
        return self._loaded[arg]

    def reader(self):
        return self._load(self.answer_arg or self.model_arg)

    def extractor(self):
        return self._load(self.model_arg)


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)
