"""The MCP server (`cmc mcp`): every tool through the SDK's in-memory client with the fake model,
and one stdio session with the embedded model, started the way an MCP client starts it."""
import json
import os
import subprocess
import sys
import threading
import time

import anyio
import pytest
from conftest import FakeModel, facts_reply
from mcp import Client
from typer.testing import CliRunner

import cmc

TOOLS = {"remember", "recall", "ask", "facts", "history", "forget", "explain"}
NO_FACT = '{"status": "no_fact", "triples": []}'
# The weekly meeting moves from Room A (floor 2) to Room B (floor 5); record 4 says no fact.
MEETING = ("The weekly meeting is in Room A.\nRoom A is on floor 2.\nRoom B is on floor 5.\n"
           "Please bring the quarterly report.\nThe weekly meeting is in Room B.")
MEETING_REPLIES = [facts_reply(("The weekly meeting", "held_in", "Room A")),
                   facts_reply(("Room A", "floor", "floor 2")), facts_reply(("Room B", "floor", "floor 5")),
                   NO_FACT, facts_reply(("The weekly meeting", "held_in", "Room B"))]
FLOOR = "On which floor is the weekly meeting?"


def session(server, script):
    """script(client) run against the server by the SDK's in-memory client, after the
    initialize handshake MCP clients make."""
    async def main():
        async with Client(server, mode="legacy") as client:
            return await script(client)
    return anyio.run(main)


def calls(server, *steps):
    """The results of tool calls (name, arguments), made one after another in one session."""
    async def script(client):
        return [await client.call_tool(name, args) for name, args in steps]
    return session(server, script)


def text(result) -> str:
    return "\n".join(block.text for block in result.content)


@pytest.fixture
def meeting(tmp_path):
    """(server, its fake model) over a memory that was told the meeting story through remember."""
    model = FakeModel(list(MEETING_REPLIES))
    server = cmc.mcp_server(tmp_path / "m.db", model)
    (stored,) = calls(server, ("remember", {"text": MEETING}))
    assert not stored.is_error, text(stored)
    return server, model


def test_tools_list_shows_the_seven_tools_with_input_schemas_and_forget_is_destructive(tmp_path):
    tools = {t.name: t for t in session(cmc.mcp_server(tmp_path / "m.db"), lambda c: c.list_tools()).tools}
    assert set(tools) == TOOLS
    assert tools["remember"].input_schema["required"] == ["text"]
    assert set(tools["remember"].input_schema["properties"]) == {"text", "time"}
    assert tools["ask"].input_schema["properties"]["as_of"]["anyOf"][0] == {"minimum": 0, "type": "integer"}
    assert tools["forget"].input_schema["properties"]["serials"]["type"] == "array"
    assert tools["forget"].annotations.destructive_hint is True
    assert all(tools[n].annotations.read_only_hint for n in ("recall", "ask", "facts", "history", "explain"))
    assert all(t.description and t.input_schema["type"] == "object" for t in tools.values())


def test_remember_stores_one_record_per_non_empty_line_with_the_time_given(tmp_path):
    server = cmc.mcp_server(tmp_path / "m.db", FakeModel([facts_reply(("Tove", "plays", "the oboe")), NO_FACT]))
    (result,) = calls(server, ("remember", {"text": "Tove plays the oboe.\n\n  \nThanks!\n", "time": "2025-03-01"}))
    assert not result.is_error
    assert [(r["serial"], r["status"]) for r in result.structured_content["records"]] == [(1, "facts"), (2, "no_fact")]
    assert result.structured_content["records"][0]["triples"] == [
        {"subject": "Tove", "relation": "plays", "object": "the oboe"}]
    assert text(result) == "[1] facts Tove —plays→ the oboe; [2] no_fact"
    with cmc.Memory(tmp_path / "m.db") as m:
        assert [tuple(r) for r in m.db.execute("SELECT source, time FROM records")] == [
            ("mcp", "2025-03-01T00:00:00Z")] * 2


def test_ask_gives_the_answer_and_evidence_of_the_cli(meeting, tmp_path, monkeypatch):
    server, model = meeting
    model.replies.append(" floor 5")
    (asked,) = calls(server, ("ask", {"question": FLOOR}))
    assert not asked.is_error
    assert asked.structured_content["answer"] == "floor 5"
    serials = [e["serial"] for e in asked.structured_content["evidence"]]
    assert {3, 5} <= set(serials) and 1 not in serials  # Room A's meeting record was superseded
    assert text(asked).splitlines()[:2] == ["floor 5", "evidence:"]
    monkeypatch.setattr(cmc, "load_model", lambda path: FakeModel([" floor 5"]))
    cli = CliRunner().invoke(cmc.app, ["ask", FLOOR, "--json", "--db", str(tmp_path / "m.db")])
    assert json.loads(cli.stdout) == asked.structured_content


def test_recall_reads_the_evidence_without_a_model_call(meeting):
    server, model = meeting
    prompts = len(model.prompts)
    (got,) = calls(server, ("recall", {"question": FLOOR}))
    assert not got.is_error and len(model.prompts) == prompts
    evidence = got.structured_content["evidence"]
    assert {3, 5} <= {e["serial"] for e in evidence}
    assert all(set(e) == {"serial", "time", "text", "why"} for e in evidence)
    assert got.structured_content["anchors"] == ["weekly meeting"]
    assert f"[5] {evidence[-1]['time'][:10]} The weekly meeting is in Room B." in text(got).splitlines()


def test_facts_history_and_explain(meeting):
    facts, room_b, history, why = calls(
        meeting[0], ("facts", {}), ("facts", {"subject": "room b"}),
        ("history", {"subject": "The weekly meeting", "relation": "held_in"}), ("explain", {"question": FLOOR}))
    assert [(f["subject"], f["object"]) for f in facts.structured_content["facts"]] == [
        ("Room A", "floor 2"), ("Room B", "floor 5"), ("The weekly meeting", "Room B")]
    assert room_b.structured_content == {"facts": [
        {"subject": "Room B", "relation": "floor", "object": "floor 5", "serial": 3, "current": True,
         "other_way": False}]}
    assert text(room_b) == "Room B —floor→ floor 5 [3]"
    (versions,) = history.structured_content["history"]
    assert [(v["object"], v["serial"], v["current"]) for v in versions["versions"]] == [
        ("Room A", 1, False), ("Room B", 5, True)]
    assert text(history).splitlines()[-1] == "weekly meeting —held_in→ Room B [5] (current)"
    assert why.structured_content["anchors"] == ["weekly meeting"]
    assert why.structured_content["superseded"][0]["serial"] == 1
    assert "skipped: weekly meeting —held_in→ room a [1], superseded by [5]" in text(why)


def test_forget_then_recall_reads_the_fact_that_fell_back(meeting):
    gone, got = calls(meeting[0], ("forget", {"serials": [5]}), ("recall", {"question": FLOOR}))
    assert gone.structured_content["restored"] == [
        {"subject": "weekly meeting", "relation": "held_in", "object": "room a", "serial": 1}]
    assert text(gone).splitlines() == ["forgot 5", "weekly meeting —held_in→ room a [1] is current again"]
    serials = {e["serial"] for e in got.structured_content["evidence"]}
    assert {1, 2} <= serials and 5 not in serials


@pytest.mark.parametrize("tool, args, message", [
    ("remember", {"text": "Tove plays the oboe.\nbad\x00byte"}, "Line 2: The record contains a NUL byte"),
    ("remember", {"text": " \n "}, "Nothing to remember."),
    ("remember", {"text": "Tove plays the oboe.", "time": "next week"}, "'next week' is not an ISO 8601 time;"),
    ("forget", {"serials": [9]}, "There is no record 9 (the newest is 0); nothing was forgotten."),
    ("history", {"subject": "Tove"}, "No facts about 'Tove' are stored."),
    ("ask", {"question": "  "}, "The question is empty."),
    ("recall", {"question": ""}, "The question is empty."),
])
def test_bad_input_is_a_tool_error_with_the_cli_sentence_and_stores_nothing(tmp_path, tool, args, message):
    server = cmc.mcp_server(tmp_path / "m.db", FakeModel())  # any prompt would fail the test
    (result,) = calls(server, (tool, args))
    assert result.is_error and text(result).startswith(message) and "\n" not in text(result)
    with cmc.Memory(tmp_path / "m.db") as m:
        assert m.info()["records"] == 0


def test_a_missing_model_is_a_tool_error_and_only_the_calls_that_need_it_fail(tmp_path):
    server = cmc.mcp_server(tmp_path / "m.db", str(tmp_path / "nope.gguf"))
    assert not (tmp_path / "m.db").exists()  # nothing is opened before a call
    remembered, listed = calls(server, ("remember", {"text": "Tove plays the oboe."}), ("facts", {}))
    assert remembered.is_error and "nope.gguf" in text(remembered)
    assert not listed.is_error and listed.structured_content == {"facts": []}


def test_the_model_and_the_judge_are_made_once_for_all_calls(tmp_path, monkeypatch):
    made = []

    def load_model(path):
        made.append(path)
        return FakeModel(default=lambda prompt: NO_FACT)
    monkeypatch.setattr(cmc, "load_model", load_model)
    monkeypatch.setenv("CMC_JUDGE_MODEL", "judge.gguf")
    server = cmc.mcp_server(tmp_path / "m.db")
    assert made == []  # nothing before a call needs it
    results = calls(server, ("remember", {"text": "Tove plays the oboe."}), ("facts", {}),
                    ("remember", {"text": "Ivo plays the cello."}))
    assert not any(r.is_error for r in results)
    assert made == [None, cmc.DEFAULT_READER, "judge.gguf"]


def test_remember_works_without_the_default_judge_installed(tmp_path, monkeypatch):
    def load_model(path):
        if path == cmc.DEFAULT_JUDGE:
            raise cmc.CmcError("The optional qwen model is not installed.")
        return FakeModel(default=lambda prompt: NO_FACT)
    monkeypatch.setattr(cmc, "load_model", load_model)
    monkeypatch.delenv("CMC_JUDGE_MODEL")  # the default judge, which a gemma-only install lacks
    (result,) = calls(cmc.mcp_server(tmp_path / "m.db"), ("remember", {"text": "Tove plays the oboe."}))
    assert not result.is_error, text(result)


class OneAtATime(FakeModel):
    """A fake model that notes how many calls use it at once."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.busy, self.most, self.guard = 0, 0, threading.Lock()

    def _rest(self, prompt, reply):
        with self.guard:
            self.busy += 1
            self.most = max(self.most, self.busy)
        time.sleep(0.05)  # long enough for a second call to overlap if it could
        try:
            return super()._rest(prompt, reply)
        finally:
            with self.guard:
                self.busy -= 1


def test_calls_run_at_once_but_the_model_is_used_by_one_call_at_a_time(tmp_path):
    model = OneAtATime(default=lambda prompt: facts_reply(("Tove", "plays", "the oboe"))
                       if "Tove" in prompt else facts_reply(("Ivo", "plays", "the cello")))
    server = cmc.mcp_server(tmp_path / "m.db", model)

    async def script(client):
        async with anyio.create_task_group() as tg:
            for line in ("Tove plays the oboe.", "Ivo plays the cello."):
                tg.start_soon(lambda t: client.call_tool("remember", {"text": t}), line)
            for _ in range(3):
                tg.start_soon(lambda: client.call_tool("facts", {}))
    session(server, script)
    assert model.most == 1
    with cmc.Memory(tmp_path / "m.db") as m:
        assert sorted(f.subject for f in m.facts()) == ["Ivo", "Tove"]


# ── the stdio server with the embedded model (an MCP client's session) ──

def rpc(proc, message: dict) -> dict | None:
    """Send one JSON-RPC message; for a request, its response (every stdout line must be one)."""
    proc.stdin.write(json.dumps(message) + "\n")
    proc.stdin.flush()
    if "id" not in message:
        return None
    reply = json.loads(proc.stdout.readline())
    assert reply["jsonrpc"] == "2.0" and reply["id"] == message["id"], reply
    return reply["result"]


@pytest.mark.real
def test_stdio_session_with_the_embedded_model_answers_as_the_cli(tmp_path):
    records = ["Tove Lind works at Brightwater.", "Brightwater is based in Tallinn."]
    question, said = "Where is Brightwater based?", "2025-03-01T09:00:00Z"  # one time for both memories
    env = {**os.environ, "CMC_DB": str(tmp_path / "mcp.db")}
    log = (tmp_path / "server.log").open("w")  # the server's stderr, read if something fails
    proc = subprocess.Popen([sys.executable, str(cmc.HERE / "cmc.py"), "mcp"], env=env, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log)
    try:
        hello = rpc(proc, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}})
        assert hello["serverInfo"]["name"] == "cmc" and hello["capabilities"]["tools"] is not None
        rpc(proc, {"jsonrpc": "2.0", "method": "notifications/initialized"})
        tools = rpc(proc, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"})["tools"]
        assert {t["name"] for t in tools} == TOOLS and all(t["inputSchema"]["properties"] for t in tools)
        remember = {"name": "remember", "arguments": {"text": "\n".join(records), "time": said}}
        stored = rpc(proc, {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": remember})
        assert [r["serial"] for r in stored["structuredContent"]["records"]] == [1, 2], stored
        asked = rpc(proc, {"jsonrpc": "2.0", "id": 4, "method": "tools/call",
                           "params": {"name": "ask", "arguments": {"question": question}}})
        proc.stdin.close()
        assert proc.wait(timeout=60) == 0, (tmp_path / "server.log").read_text()
    finally:
        if proc.poll() is None:
            proc.kill()
        log.close()
    assert not asked["isError"] and "Tallinn" in asked["structuredContent"]["answer"]
    runner, app, db = CliRunner(), cmc.app, str(tmp_path / "cli.db")
    assert runner.invoke(app, ["add", *records, "--time", said, "--db", db]).exit_code == 0
    cli = json.loads(runner.invoke(app, ["ask", question, "--json", "--db", db]).stdout)
    assert cli == asked["structuredContent"]  # answer, evidence (with times), anchors, edges
