"""Cold start of the MCP server: how long a client waits for `initialize` (issue 39: at most 1 s).

    python bench/mcp_startup.py                 # median of 5, writes bench/results/mcp_startup.json
    python bench/mcp_startup.py --runs 9 --json out.json
    python bench/results.py     # then regenerate docs/results.md from bench/results/*.json

Each run starts `python cmc.py mcp` as an MCP client does (a new process, the database in
CMC_DB), sends `initialize` at once and times from the spawn to its response; then
`notifications/initialized` and `tools/list` (the seven tools must be listed), and closes
stdin, which ends the server. Every line the server writes to stdout must be a JSON-RPC message.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402

TOOLS = {"remember", "recall", "ask", "facts", "history", "forget", "explain"}
INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                         "clientInfo": {"name": "mcp_startup", "version": "1"}}}


def send(proc: subprocess.Popen, message: dict) -> None:
    proc.stdin.write(json.dumps(message) + "\n")
    proc.stdin.flush()


def reply(proc: subprocess.Popen) -> dict:
    line = proc.stdout.readline()
    message = json.loads(line)  # anything else on stdout breaks the protocol
    assert message.get("jsonrpc") == "2.0", line
    return message


def one_run(db: Path) -> float:
    """Milliseconds from spawning the server to its initialize response."""
    env = {**os.environ, "CMC_DB": str(db)}
    started = time.perf_counter()
    proc = subprocess.Popen([sys.executable, str(REPO / "cmc.py"), "mcp"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    try:
        send(proc, INITIALIZE)
        answered = reply(proc)
        ms = (time.perf_counter() - started) * 1000
        assert answered["result"]["serverInfo"]["name"] == "cmc", answered
        send(proc, {"jsonrpc": "2.0", "method": "notifications/initialized"})
        send(proc, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
        listed = {t["name"] for t in reply(proc)["result"]["tools"]}
        assert listed == TOOLS, listed
        proc.stdin.close()
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
    return ms


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", type=Path, default=REPO / "bench" / "results" / "mcp_startup.json")
    args = parser.parse_args()
    load = [round(x, 2) for x in os.getloadavg()]  # the machine is shared: how busy it was
    with tempfile.TemporaryDirectory() as tmp:
        runs = []
        for n in range(args.runs):
            runs.append(round(one_run(Path(tmp) / "memory.db"), 1))
            common.log(f"run {n + 1}: initialize answered after {runs[-1]} ms")
    document = {"command": "python bench/mcp_startup.py" + (f" --runs {args.runs}" if args.runs != 5 else ""),
                "commit": common.commit(), "python": sys.version.split()[0], "cpus": os.cpu_count(), "load_average_1_5_15_min": load,
                "initialize_ms_median": statistics.median(runs), "initialize_ms_runs": runs,
                "target_ms": 1000}
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(document, indent=1) + "\n")
    print(f"initialize, cold: median {document['initialize_ms_median']} ms of {args.runs} runs {runs}; "
          f"wrote {common.shown(args.json)}")


if __name__ == "__main__":
    main()
