"""Reliability (issue 6): kill -9 mid-load, two writers at once, bad input, a failing model,
schema versions, random add/forget sequences against a replay oracle, privacy."""
import json
import os
import signal
import sqlite3
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import FakeModel, facts_reply, put
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import cmc

TESTS = Path(__file__).resolve().parent

# A cmc process with a tiny fake model (no test hook in cmc.py): it monkeypatches load_model
# and runs the real CLI. "P12 lives in C3." extracts to (P12, lives_in, C3); argv[1] is a delay
# in seconds per extraction, so a load can be killed halfway.
FAKE_CLI = f"""
import re, sys, time
sys.path[:0] = [{str(TESTS)!r}, {str(TESTS.parent)!r}]
import cmc
from conftest import FakeModel, facts_reply

delay = float(sys.argv.pop(1))

def reply(prompt):
    time.sleep(delay)
    found = re.findall(r"\\b([PAB]\\d+) lives in (C\\d+)\\b", prompt)
    if found:
        return facts_reply((found[-1][0], "lives_in", found[-1][1]))
    return '{{"status": "no_fact", "triples": []}}'

cmc.load_model = lambda path: FakeModel(default=reply)
"""
RUN_CLI = FAKE_CLI + "sys.argv[0] = 'cmc'\ncmc.main()\n"


def cmc_process(*args, delay=0.0):
    return subprocess.Popen([sys.executable, "-c", RUN_CLI, str(delay), *map(str, args)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def replay_oracle(db, as_of=None):
    """The current graph by a plain Python replay of the assertions."""
    graph = {}
    for s, r, o, serial in db.execute("SELECT subject_key, relation, object_key, serial FROM assertions "
                                      "ORDER BY serial, id"):
        if as_of is None or serial <= as_of:
            graph[(s, r)] = (o, serial)
    return graph


def stored_graph(db):
    return {(r[0], r[1]): (r[2], r[3]) for r in
            db.execute("SELECT subject_key, relation, object_key, serial FROM current_edges")}


def assert_consistent(path) -> sqlite3.Connection:
    """Integrity, contiguous serials, no assertion on a pending record, the FTS index matching
    the records, and current_edges equal to a replay."""
    db = sqlite3.connect(path, timeout=30, isolation_level=None)  # autocommit: hold no lock
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert db.execute("PRAGMA foreign_key_check").fetchall() == []
    db.execute("INSERT INTO records_fts (records_fts) VALUES ('integrity-check')")
    serials = sorted(r[0] for r in db.execute("SELECT serial FROM records UNION ALL SELECT serial FROM forgotten"))
    assert serials == list(range(1, len(serials) + 1))  # stored or forgotten: no gap, no duplicate
    assert db.execute("SELECT count(*) FROM assertions JOIN records USING (serial) "
                      "WHERE status = 'pending'").fetchone()[0] == 0
    assert stored_graph(db) == replay_oracle(db)
    return db


# ── crash ──

@pytest.mark.parametrize("kill_when", ["stored", "extracting"])
def test_kill_9_during_add_file_then_a_rerun_finishes_without_duplicates_or_gaps(tmp_path, kill_when):
    lines = [f"P{i} lives in C{i % 7} (note {i})." for i in range(1, 201)]  # no two share a rule
    (tmp_path / "bulk.txt").write_text("\n".join(lines) + "\n")
    path = tmp_path / "m.db"
    args = ("add", "--file", tmp_path / "bulk.txt", "--db", path)
    proc = cmc_process(*args, delay=0.02)
    need = 1 if kill_when == "stored" else 40  # records stored / records extracted before the kill
    deadline = time.time() + 60
    while time.time() < deadline and proc.poll() is None:
        if path.exists():
            probe = sqlite3.connect(path, timeout=5, isolation_level=None)
            try:
                done = probe.execute("SELECT count(*) FROM records" if kill_when == "stored" else
                                     "SELECT count(*) FROM records WHERE status != 'pending'").fetchone()[0]
            except sqlite3.OperationalError:  # the schema is still being created
                done = 0
            finally:
                probe.close()
            if done >= need:
                break
        time.sleep(0.01)
    os.kill(proc.pid, signal.SIGKILL)
    proc.communicate()
    assert proc.returncode == -signal.SIGKILL, "the load finished before it could be killed"
    db = assert_consistent(path)
    pending = db.execute("SELECT count(*) FROM records WHERE status = 'pending'").fetchone()[0]
    assert 0 < pending <= 200 and (kill_when == "stored" or pending < 200)
    rerun = cmc_process(*args, "--json")
    out, err = rerun.communicate(timeout=120)
    assert rerun.returncode == 0, err
    db = assert_consistent(path)
    rows = db.execute("SELECT serial, text, source, status FROM records ORDER BY serial").fetchall()
    assert [r[1] for r in rows] == lines and [r[0] for r in rows] == list(range(1, 201))
    assert len({r[2] for r in rows}) == 200 and {r[3] for r in rows} == {"facts"}
    assert db.execute("SELECT count(*) FROM assertions").fetchone()[0] == 200


# ── concurrency ──

WRITER = FAKE_CLI + """
memory = cmc.Memory(sys.argv[1], model=cmc.load_model(None))
for i in range(1000):
    memory.add(f"{sys.argv[2]}{i} lives in C{i % 9}.")
"""


@pytest.fixture(scope="module")
def two_writers(tmp_path_factory):
    """Two processes each adding 1,000 records (one transaction and one extraction each) at once."""
    path = tmp_path_factory.mktemp("writers") / "m.db"
    cmc.open_db(path).close()
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, "0", str(path), who],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for who in "AB"]
    errors = [p.communicate(timeout=240)[1] if p.wait(timeout=240) else "" for p in procs]
    return path, errors


def test_two_processes_adding_1000_records_each_at_once(two_writers):
    path, errors = two_writers
    assert errors == ["", ""]
    db = assert_consistent(path)
    rows = db.execute("SELECT serial, text, status FROM records ORDER BY serial").fetchall()
    assert len(rows) == 2000 and {r[2] for r in rows} == {"facts"}
    for who in "AB":  # each writer's records are all there, in its own order (serials increase)
        mine = [t for _, t, _ in rows if t.startswith(who)]
        assert mine == [f"{who}{i} lives in C{i % 9}." for i in range(1000)]
    both = [t[0] for _, t, _ in rows]
    assert both != sorted(both), "the writers did not interleave: this test proved nothing"


def test_two_processes_never_extract_one_record_twice(two_writers):
    db = sqlite3.connect(two_writers[0], isolation_level=None)
    twice = db.execute("SELECT serial FROM assertions GROUP BY serial HAVING count(*) > 1").fetchall()
    assert twice == [], f"{len(twice)} records were extracted twice"


def test_forgetting_a_record_while_it_is_extracted(tmp_path):
    db, other = cmc.open_db(tmp_path / "m.db"), cmc.open_db(tmp_path / "m.db")
    cmc.add_records(db, [("Ana lives in Lyon.", "t"), ("Bo lives in Rome.", "t")])

    def reply(prompt):
        if "Ana" in prompt.rsplit("Record:", 1)[-1]:
            cmc.forget(other, [1])  # the user forgets record 1 while the model reads it
        return facts_reply(("Ana", "lives_in", "Lyon")) if "Ana" in prompt.rsplit("Record:", 1)[-1] \
            else facts_reply(("Bo", "lives_in", "Rome"))
    cmc.extract_pending(db, FakeModel(default=reply))
    assert [tuple(r) for r in db.execute("SELECT serial, status FROM records")] == [(2, "facts")]
    assert_consistent(tmp_path / "m.db")


# ── bad input ──

@pytest.fixture
def run(tmp_path, monkeypatch):
    model = FakeModel()
    monkeypatch.setattr(cmc, "load_model", lambda path: model)
    runner, app = CliRunner(), cmc.app

    def invoke(*args, input=None):
        return runner.invoke(app, [*args, "--db", str(tmp_path / "m.db")], input=input)

    invoke.model = model
    invoke.count = lambda: cmc.open_db(tmp_path / "m.db").execute("SELECT count(*) FROM records").fetchone()[0]
    return invoke


def one_line_error(result, *words):
    assert result.exit_code == 1, result.output
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    for w in words:
        assert w in result.stderr


@pytest.mark.parametrize("content,words", [
    (b"Ana lives in Lyon.\n" + b"x" * 1_048_576 + b"\n", ["line 2", "characters", "Nothing was added"]),
    (b"Ana lives in Lyon.\nBo\x00 lives in Rome.\n", ["line 2", "NUL", "Nothing was added"]),
    (b"Ana lives in Lyon.\nBo lives in \xc3\x28Rome.\n", ["line 2", "UTF-8"]),
], ids=["1MB-line", "NUL", "invalid-UTF-8"])
def test_bad_file_is_refused_in_one_line_and_nothing_is_stored(run, tmp_path, content, words):
    (tmp_path / "bad.txt").write_bytes(content)
    one_line_error(run("add", "--file", str(tmp_path / "bad.txt")), *words)
    assert run.count() == 0


def test_one_megabyte_record_on_the_command_line_is_refused(run):
    one_line_error(run("add", "Ana lives in Lyon.", "y" * 1_048_576), "1,048,576 characters")
    assert run.count() == 0


@pytest.mark.parametrize("question", ['" * OR AND NOT NEAR( ) ^ - + : "', "*", "NEAR(room_a b, 2)",
                                      "'; DROP TABLE records; --", 'Room A" OR "x'])
def test_questions_made_of_fts_operators_or_sql_are_read_safely(run, question):
    run.model.replies += [facts_reply(("Room A", "floor", "floor 2"))]
    run("add", "Room A is on floor 2.")
    run.model.default = lambda prompt: " floor 2"
    result = run("ask", question, "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["answer"] == "floor 2"
    assert run.count() == 1


def test_sql_and_markup_looking_records_are_stored_and_shown_verbatim(run):
    texts = ["Robert'); DROP TABLE records;-- is a name.", "[red]Tag[/red] is a colour name.", 'He said "NEAR" * OR x.']
    run.model.default = lambda prompt: '{"status": "no_fact", "triples": []}'
    assert run("add", *texts).exit_code == 0
    exported = [json.loads(line) for line in run("export").stdout.splitlines()]
    assert [r["text"] for r in exported if r.get("table") == "records"] == texts
    preview = run("forget", "--match", '"NEAR" * OR', input="n\n")
    assert 'He said "NEAR" * OR x.' in preview.stderr and "[3]" in preview.stderr
    run.model.default = lambda prompt: "Tag"
    shown = run("ask", "What is Tag?")
    assert "[red]Tag[/red] is a colour name." in shown.stdout


@pytest.mark.parametrize("args,words", [
    (["history", "*"], ["names no subject"]),
    (["history", "'; DROP TABLE records; --"], ["No facts about"]),
    (["forget", "--match", "* ^ -"], ["no words"]),
    (["forget", "7"], ["no record 7"]),
    (["forget"], ["Nothing to forget"]),
    (["import", "/nonexistent/x.jsonl"], ["Cannot read"]),
])
def test_lifecycle_commands_refuse_bad_input_in_one_line(run, args, words):
    run.model.default = lambda prompt: '{"status": "no_fact", "triples": []}'
    run("add", "Hello there.")
    one_line_error(run(*args), *words)
    assert run.count() == 1


# ── a failing model ──

class GarbageModel:
    """Answers every choice with an index that does not exist and every completion with junk."""
    name = "garbage"

    def complete(self, prompt, *, reply="", max_tokens=64, stop=("\n",)):
        return cmc.Completion('}{\x00"]] ☃', 1, 1)

    def choose(self, prompt, options, *, reply="", prefer_longer=0.0):
        return len(options) + 7


def test_a_garbage_model_leaves_records_unresolved(db):
    cmc.add_records(db, [("Ana lives in Lyon.", "t"), ("Bo lives in Rome.", "t")])
    results = cmc.extract_pending(db, GarbageModel())
    assert [r.status for r in results] == ["unresolved", "unresolved"] and all(r.reason for r in results)
    assert [tuple(r) for r in db.execute("SELECT status FROM records")] == [("unresolved",)] * 2


def test_a_model_that_raises_mid_batch_loses_nothing_and_the_batch_continues(run):
    def script(prompt):
        record = prompt.rsplit("Record:", 1)[-1]
        if "Bo" in record:
            raise RuntimeError("CUDA out of memory")
        if "Cy" in record:
            return '}}} not json at all'
        name = record.split()[0]
        return facts_reply((name, "lives_in", record.split()[-1].rstrip(".")))
    run.model.default = script
    result = run("add", "Ana lives in Lyon.", "Bo lives in Rome.", "Cy lives in Oslo.", "Di lives in Pisa.", "--json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert [r["status"] for r in rows] == ["facts", "unresolved", "unresolved", "facts"]
    assert "CUDA out of memory" in rows[1]["reason"]


def test_an_interrupt_mid_batch_keeps_the_rest_pending_for_the_next_run(db):
    cmc.add_records(db, [("Ana lives in Lyon.", "t"), ("Bo lives in Rome.", "t"), ("Cy lives in Oslo.", "t")])
    interrupt = [True]

    def reply(prompt):
        words = prompt.rsplit("Record:", 1)[-1].split()
        if words[0] == "Bo" and interrupt:  # Ctrl-C while the model reads record 2, once
            raise KeyboardInterrupt(interrupt.pop())
        return facts_reply((words[0], "lives_in", words[3].rstrip(".")))
    with pytest.raises(KeyboardInterrupt):
        cmc.extract_pending(db, FakeModel(default=reply))
    assert [r[0] for r in db.execute("SELECT status FROM records ORDER BY serial")] == ["facts", "pending", "pending"]
    cmc.extract_pending(db, FakeModel(default=reply))
    assert [r[0] for r in db.execute("SELECT status FROM records ORDER BY serial")] == ["facts"] * 3


# ── property: random adds and forgets against a replay oracle and a BFS oracle ──

NAMES = [f"E{i}" for i in range(4)]  # few keys, so versions pile up and forgets hit current edges
RELATIONS = ["r0", "r1"]
triple = st.builds(lambda s, r, d: (NAMES[s], r, NAMES[(s + d) % len(NAMES)]),  # object != subject
                   st.integers(0, len(NAMES) - 1), st.sampled_from(RELATIONS), st.integers(1, len(NAMES) - 1))
operation = st.one_of(st.tuples(st.just("add"), st.lists(triple, max_size=3)),
                      st.tuples(st.just("forget"), st.one_of(st.integers(0, 2), st.integers(0, 50))))


def bfs_oracle(graph, anchors, texts, max_hops=cmc.MAX_HOPS):
    """Edges reachable from the anchors, each fact once at its shortest depth (< max_hops; read
    forwards at equal depths), plus the anchors' newest facts-as-value read backwards. From an
    entity other than an anchor the walk also reads backwards each relation's newest fact that
    has it as value, when the record writes that fact's subject before its value."""
    def written_first(s, o, serial):
        text = texts[serial]
        return 0 <= text.find(s.upper()) < text.find(o.upper())

    def back(n):  # facts read backwards from n: (subject, relation, serial)
        into = [(s, r, serial) for (s, r), (o, serial) in graph.items() if o == n]
        assert len(into) <= cmc.INCOMING_CAP  # the newest-facts cap never binds here
        return [(s, r, serial) for s, r, serial in into
                if serial == max(x for _, r2, x in into if r2 == r) and written_first(s, n, serial)]

    depth, frontier = {a: 0 for a in anchors}, list(anchors)
    for d in range(1, max_hops):
        frontier = [m for n in frontier
                    for m in [o for (s, _), (o, _) in graph.items() if s == n]
                    + ([s for s, _, _ in back(n)] if n not in anchors else [])]
        for m in frontier:
            depth.setdefault(m, d)
        frontier = [m for m in dict.fromkeys(frontier) if depth[m] == d]
    read = {}  # fact key -> (edge, its depth, read backwards)
    for n, d in sorted(depth.items(), key=lambda x: x[1]):
        for (s, r), (o, serial) in graph.items():
            if s == n and ((s, r) not in read or read[(s, r)][1:] > (d, False)):
                read[(s, r)] = ((s, r, o, serial, d, False), d, False)
        for s, r, serial in back(n) if n not in anchors else []:
            if (s, r) not in read:
                read[(s, r)] = ((n, r, s, serial, d, True), d, True)
    walked = [edge for edge, _, _ in read.values()]
    # and each anchor's newest facts-as-value not walked, read backwards as one hop
    named = []
    for a in anchors:
        into = sorted((-serial, s, r) for (s, r), (o, serial) in graph.items() if o == a)
        named += [(a, r, s, -neg, 0, True) for neg, s, r in into[:cmc.NAMED_INCOMING_CAP]
                  if (s, r) not in read and s not in anchors]
    return sorted(walked + named)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(operation, min_size=1, max_size=25), st.lists(st.sampled_from(NAMES), min_size=1, max_size=2))
def test_random_adds_and_forgets_match_the_oracles(ops, anchor_names):
    db = cmc.open_db(":memory:")
    alive: dict[int, list] = {}  # serial -> triples (keys), the oracle's own memory
    texts: dict[int, str] = {}
    next_serial = 1
    for kind, arg in ops:
        if kind == "add":
            serial = put(db, "record " + " ".join(" ".join(t) for t in arg), *arg)  # as texts[serial]
            assert serial == next_serial  # serials are never reused, even after forgetting the newest
            alive[serial] = [(cmc.entity_key(s), r, cmc.entity_key(o)) for s, r, o in arg]
            texts[serial] = "record " + " ".join(" ".join(t) for t in arg)
            next_serial += 1
        elif alive:
            victim = sorted(alive)[-1 - arg % len(alive)]  # 0: the newest record
            cmc.forget(db, [victim])
            del alive[victim]

    def oracle(as_of):
        graph = {}
        for serial in sorted(alive):
            if serial <= as_of:
                for s, r, o in alive[serial]:
                    graph[(s, r)] = (o, serial)
        return graph

    anchors = sorted({cmc.entity_key(a) for a in anchor_names})
    assert stored_graph(db) == oracle(next_serial)
    for as_of in {0, next_serial // 2, next_serial - 1, next_serial}:
        expected = oracle(as_of)
        got = {(cmc.entity_key(f["subject"]), f["relation"]): f["serial"] for f in cmc.facts(db, as_of=as_of)}
        assert got == {k: serial for k, (_, serial) in expected.items()}
        walked = sorted((e.subject, e.relation, e.object, e.serial, e.depth, e.reverse)
                        for e in cmc.traverse(db, anchors, as_of=as_of))
        assert walked == bfs_oracle(expected, anchors, texts)
    now = sorted((e.subject, e.relation, e.object, e.serial, e.depth, e.reverse) for e in cmc.traverse(db, anchors))
    assert now == bfs_oracle(oracle(next_serial), anchors, texts)
    assert cmc.rebuild(db).changed_edges == 0
    db.close()


# ── privacy ──

def test_database_wal_shm_and_export_files_are_private(tmp_path):
    db = cmc.open_db(tmp_path / "m.db")
    put(db, "Ana lives in Lyon.", ("Ana", "lives_in", "Lyon"))
    cmc.export(db, tmp_path / "out.jsonl")
    for name in ("m.db", "m.db-wal", "m.db-shm", "out.jsonl"):
        assert stat.S_IMODE(os.stat(tmp_path / name).st_mode) == 0o600, name


# Every command, in one process whose audit hook ends it (exit 99) at the first socket call.
NO_NETWORK = FAKE_CLI + """
import os
def hook(event, args):
    if event.startswith("socket."):
        sys.stderr.write(f"network use: {event} {args}\\n")
        os._exit(99)
sys.addaudithook(hook)
db, out = sys.argv[1], sys.argv[2]
commands = [["add", "P1 lives in C1.", "P2 lives in C2.", "P1 lives in C3."], ["ask", "Where does P1 live?"],
            ["ask", "Where does P1 live?", "--explain", "--as-of", "2", "--json"], ["facts", "--all"],
            ["history", "P1"], ["forget", "3"], ["forget", "--match", "P2 lives", "--yes"], ["export", out],
            ["rebuild"], ["info"], ["import", out, "--db", db + "-copy"]]
for argv in commands:
    sys.argv = ["cmc", *argv, *([] if "--db" in argv else ["--db", db])]
    try:
        cmc.main()
    except SystemExit as e:
        assert e.code in (0, None), (argv, e.code)
print("ok")
"""


def test_no_command_opens_a_network_socket(tmp_path):
    result = subprocess.run([sys.executable, "-c", NO_NETWORK, "0", str(tmp_path / "m.db"), str(tmp_path / "x.jsonl")],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().endswith("ok")


def test_the_network_guard_does_catch_a_socket(tmp_path):
    probe = NO_NETWORK.replace("commands = [", "import socket; socket.socket()\ncommands = [")
    result = subprocess.run([sys.executable, "-c", probe, "0", str(tmp_path / "m.db"), str(tmp_path / "x.jsonl")],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 99 and "network use: socket.__new__" in result.stderr
