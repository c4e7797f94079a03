import os
import shutil
import sqlite3
import stat
import threading
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import put

import cmc


def test_new_database_has_schema_version_wal_and_private_mode(tmp_path):
    path = tmp_path / "new.db"
    db = cmc.open_db(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == cmc.SCHEMA_VERSION
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"records", "assertions", "current_edges", "relations", "relation_aliases",
            "entities", "records_fts", "entities_fts"} <= tables


def test_a_new_file_opens_while_another_connection_is_writing_it(tmp_path):
    # Switching to WAL while another connection holds the write lock is refused at once by
    # SQLite, not after the busy timeout; several MCP calls open a new file at the same moment.
    path = tmp_path / "m.db"
    path.touch()
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    release = threading.Timer(0.3, other.execute, ("COMMIT",))
    release.start()
    db = cmc.open_db(path)
    release.join()
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA user_version").fetchone()[0] == cmc.SCHEMA_VERSION


def test_schema_file_ends_with_user_version():
    last = [l for l in cmc.SCHEMA_PATH.read_text().splitlines() if l.strip()][-1]
    assert last == f"PRAGMA user_version = {cmc.SCHEMA_VERSION};"


def test_reopening_keeps_records(tmp_path):
    path = tmp_path / "m.db"
    cmc.add_records(cmc.open_db(path), [("Room A is on floor 2.", "cli")])
    assert cmc.open_db(path).execute("SELECT text FROM records").fetchone()[0] == "Room A is on floor 2."


def test_newer_schema_is_refused_with_a_sentence(tmp_path):
    path = tmp_path / "future.db"
    raw = sqlite3.connect(path)
    raw.execute("PRAGMA user_version = 99")
    raw.close()
    with pytest.raises(cmc.CmcError, match="newer than this cmc"):
        cmc.open_db(path)


def test_foreign_sqlite_file_is_refused(tmp_path):
    path = tmp_path / "other.db"
    raw = sqlite3.connect(path)
    raw.execute("CREATE TABLE x (y)")
    raw.commit()
    raw.close()
    with pytest.raises(cmc.CmcError, match="not a cmc database"):
        cmc.open_db(path)


def test_serials_start_at_one_and_increase(db):
    assert cmc.add_records(db, [("a b", "t"), ("c d", "t")]) == [1, 2]
    assert cmc.add_records(db, [("e f", "t")]) == [3]
    statuses = {r[0] for r in db.execute("SELECT status FROM records")}
    assert statuses == {"pending"}


@pytest.mark.parametrize("text", ["", "   ", "\n\t "])
def test_empty_record_is_refused_and_nothing_is_stored(db, text):
    with pytest.raises(cmc.CmcError, match="empty"):
        cmc.add_records(db, [("fine record", "t"), (text, "t")])
    assert db.execute("SELECT count(*) FROM records").fetchone()[0] == 0


def test_nul_byte_is_refused(db):
    with pytest.raises(cmc.CmcError, match="NUL"):
        cmc.add_records(db, [("bad\x00text", "t")])


@pytest.mark.parametrize("given, stored", [("2025-03-01", "2025-03-01T00:00:00Z"),
                                           ("2025-03-01T09:30:00Z", "2025-03-01T09:30:00Z"),
                                           ("2025-03-01 11:30+02:00", "2025-03-01T09:30:00Z")])
def test_records_keep_the_time_they_were_said_in_utc(db, given, stored):
    cmc.add_records(db, [("Tove plays the oboe.", "t", given)])
    assert db.execute("SELECT time FROM records").fetchone()[0] == stored


def test_a_time_that_is_not_iso_8601_is_refused_in_a_sentence():
    with pytest.raises(cmc.CmcError, match="'last Tuesday' is not an ISO 8601 time; give e.g."):
        cmc.record_time("last Tuesday")


def test_sql_looking_text_is_stored_verbatim(db):
    text = "Robert'); DROP TABLE records;-- is a name."
    cmc.add_records(db, [(text, "t")])
    assert db.execute("SELECT text FROM records").fetchone()[0] == text


@pytest.mark.parametrize("raw,key", [
    ("The Weekly Meeting's", "weekly meeting"),
    ("Room B", "room b"),
    ("room-b!", "room b"),
    ("A", "a"),
    ("Quillon Inc.", "quillon inc"),
    ("Quillon Inc.'s", "quillon inc"),
    ("James'", "james"),
    ("pesäpallo", "pesäpallo"),
])
def test_entity_key_normalises_case_punctuation_possessives(raw, key):
    assert cmc.entity_key(raw) == key


@pytest.mark.parametrize("raw,key", [("is located in", "located_in"), ("Held_In", "held_in"),
                                     ("was born in", "born_in")])
def test_relation_key(raw, key):
    assert cmc.relation_key(raw) == key


def old_database(tmp_path, fixture: str, *texts: str) -> Path:
    """A copy of an empty database made by an older cmc (frozen in fixtures/), holding texts."""
    path = tmp_path / fixture
    shutil.copyfile(Path(__file__).parent / "fixtures" / fixture, path)
    raw = sqlite3.connect(path)
    for text in texts:
        raw.execute("INSERT INTO records (text, text_key, added_at, source, status) VALUES (?, ?, 'now', 'cli', 'no_fact')",
                    (text, cmc.text_key(text)))
    raw.commit()
    raw.close()
    return path


def test_version_1_file_is_migrated_and_keeps_its_records(tmp_path):
    db = cmc.open_db(old_database(tmp_path, "schema-v1.db", "Ana lives in Lyon."))
    assert db.execute("PRAGMA user_version").fetchone()[0] == cmc.SCHEMA_VERSION
    assert tuple(db.execute("SELECT text, extracted_by FROM records").fetchone()) == ("Ana lives in Lyon.", "")
    assert db.execute("SELECT count(*) FROM rules").fetchone()[0] == 0


@pytest.mark.parametrize("fixture", ["schema-v1.db", "schema-v2.db", "schema-v3.db", "schema-v4.db", "schema-v5.db", "schema-v6.db",
                                     "schema-v7.db"])
def test_every_older_schema_migrates_to_a_fresh_one(tmp_path, fixture):
    fresh = cmc.open_db(tmp_path / "fresh.db")
    old = cmc.open_db(old_database(tmp_path, fixture))

    def shape(db):
        rows = db.execute("SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name")
        return {(t, n): [c[1] for c in db.execute(f"PRAGMA table_info({n})")] for t, n in rows}
    assert shape(old) == shape(fresh)
    config = "SELECT k, v FROM entities_fts_config ORDER BY k"  # FTS5 settings are schema too
    assert old.execute(config).fetchall() == fresh.execute(config).fetchall()


def fts_sound(db) -> bool:
    """FTS5's own check that each full-text index holds exactly its content table's rows."""
    for fts in ("records_fts", "entities_fts"):
        try:
            db.execute(f"INSERT INTO {fts} ({fts}) VALUES ('integrity-check')")
        except sqlite3.DatabaseError:
            return False
    return True


def test_version_5_file_indexes_old_and_new_records_and_entities_once(tmp_path):
    """Schema 6 indexes a record and an entity in the statements that add them, no longer by
    insert triggers: a migrated file must not keep its triggers (each row would be indexed
    twice), and what it held before stays found."""
    db = cmc.open_db(old_database(tmp_path, "schema-v5.db", "Ana lives in Lyon."))
    put(db, "The Blue Heron cafe is on Quay Street.", ("The Blue Heron cafe", "located_on", "Quay Street"))
    assert fts_sound(db)
    assert [s for s, _ in cmc.match_records(db, "lives in")] == [1]
    assert [s for s, _ in cmc.match_records(db, "quay street")] == [2]
    assert cmc.anchor(db, "Where is the Blue Heron cafe?") == ["blue heron cafe"]


def test_a_new_database_indexes_each_added_record_and_entity_once(db):
    put(db, "Ana lives in Lyon.", ("Ana", "lives_in", "Lyon"))
    put(db, "Ana lives in Rome.", ("Ana", "lives_in", "Rome"))
    assert fts_sound(db)
    assert [s for s, _ in cmc.match_records(db, "ana lives")] == [1, 2]
    assert db.execute("SELECT count(*) FROM entities_fts WHERE entities_fts MATCH 'ana'").fetchone()[0] == 1


def test_version_2_file_is_migrated_and_serials_continue_past_forgotten_ones(tmp_path):
    db = cmc.open_db(old_database(tmp_path, "schema-v2.db", "Ana lives in Lyon."))
    assert db.execute("PRAGMA user_version").fetchone()[0] == cmc.SCHEMA_VERSION == 10
    assert db.execute("SELECT count(*) FROM forgotten").fetchone()[0] == 0
    cmc.forget(db, [1])
    assert cmc.add_records(db, [("Bo lives in Rome.", "t")]) == [2]


def test_version_7_file_keeps_its_facts_the_other_way_round_when_migrated(tmp_path):
    path = old_database(tmp_path, "schema-v7.db")
    raw = sqlite3.connect(path)
    raw.execute("INSERT INTO records (text, text_key, added_at, source, status) VALUES "
                "('Mira Holt performed Blue Hour.', 'x', 'now', 'cli', 'facts')")
    raw.execute("INSERT INTO relations (key, first_seen) VALUES ('performed', 1)")
    raw.execute("INSERT INTO assertions (serial, subject, subject_key, relation, relation_text, object, object_key) "
                "VALUES (1, 'Mira Holt', 'mira holt', 'performed', 'performed', 'Blue Hour', 'blue hour')")
    raw.commit()
    raw.close()
    db = cmc.open_db(path)
    assert [(r["subject"], r["relation"], r["object"]) for r in cmc.facts(db) if r.get("other_way")] == \
        [("Blue Hour", "performed_by", "Mira Holt")]


def test_newer_schema_is_refused_by_the_cli_in_one_line(tmp_path):
    from typer.testing import CliRunner
    path = tmp_path / "future.db"
    raw = sqlite3.connect(path)
    raw.execute("PRAGMA user_version = 99")
    raw.close()
    result = CliRunner().invoke(cmc.app, ["facts", "--db", str(path)])
    assert result.exit_code == 1
    assert "schema version 99, newer than this cmc" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("text,message", [("x" * 1_000_000, "1,000,000 characters"),
                                          ("ok " * 4000, "at most 10,000")])
def test_huge_record_is_refused_and_nothing_is_stored(db, text, message):
    with pytest.raises(cmc.CmcError, match=message):
        cmc.add_records(db, [("fine record", "t"), (text, "t")])
    assert db.execute("SELECT count(*) FROM records").fetchone()[0] == 0


@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=60))
def test_the_ascii_fast_path_finds_the_same_words(text):
    assert cmc.words_of(text) == cmc._words_of_any(text)


def test_version_8_file_gets_record_times_and_a_stemmed_record_index_when_migrated(tmp_path):
    db = cmc.open_db(old_database(tmp_path, "schema-v8.db", "Ana lives in Lyon.", "Bo lives in Rome."))
    assert [r[0] for r in db.execute("SELECT time FROM records")] == ["now", "now"]  # its added_at
    assert cmc.window_read(db, "Who is living in Rome?", cmc.LATEST) == [2, 1] or \
        set(cmc.window_read(db, "Who is living in Rome?", cmc.LATEST)) == {1, 2}
    assert not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'windows_fts'").fetchone()
    assert [e["serial"] for e in cmc.recall(db, "Who lives in Rome?").evidence] == [1, 2]


def test_version_9_file_gets_a_stemmed_record_index_and_loses_its_windows(tmp_path):
    db = cmc.open_db(old_database(tmp_path, "schema-v9.db", "Ana moved to Lyon.", "Bo paints."))
    assert cmc.window_read(db, "Where did Ana move?", cmc.LATEST) == [1]
    assert not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'windows_fts'").fetchone()
