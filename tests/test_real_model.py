"""End to end with the embedded gemma-3-270m GGUF: no fakes. Marked `real`; `make test` runs them."""
import json
import os
import stat

import pytest
from typer.testing import CliRunner

import cmc

pytestmark = pytest.mark.real


@pytest.fixture(scope="module")
def model():
    return cmc.load_model(None)


def test_paper_example_end_to_end(tmp_path, model):
    db = cmc.open_db(tmp_path / "m.db")
    cmc.add_records(db, [(line, "test") for line in (cmc.HERE / "examples" / "meeting.txt").read_text().splitlines()])
    results = cmc.extract_pending(db, model)
    assert all(r.status != "pending" for r in results)
    result = cmc.ask(db, model, "On which floor is the weekly meeting?")
    assert result.answer in ("Room B", "floor 5")  # a value the walk reached, chosen by the model
    texts = [e["text"] for e in result.evidence]
    assert "The weekly meeting is in Room B." in texts and "Room B is on floor 5." in texts
    assert "The weekly meeting is in Room A." not in texts  # superseded


def test_cli_add_and_ask_with_the_embedded_model(tmp_path):
    runner, app, db = CliRunner(), cmc.app, str(tmp_path / "cli.db")
    added = runner.invoke(app, ["add", "Ana Silva works at Brisco.", "Brisco is based in Velmar.", "--db", db, "--json"])
    assert added.exit_code == 0, added.output
    assert [r["serial"] for r in json.loads(added.stdout)] == [1, 2]
    asked = runner.invoke(app, ["ask", "Where is Brisco based?", "--db", db, "--json"])
    assert asked.exit_code == 0, asked.output
    doc = json.loads(asked.stdout)
    assert "Velmar" in doc["answer"]
    assert 2 in [e["serial"] for e in doc["evidence"]]


def test_a_change_told_one_record_per_add_leaves_the_old_record_out(tmp_path, model):
    db = cmc.open_db(tmp_path / "one.db")
    for text in ("Raj lives in Pune.", "Raj moved to Chennai."):
        cmc.add_records(db, [(text, "test")])
        cmc.extract_pending(db, model)
    result = cmc.ask(db, model, "Which city does Raj live in?")
    assert "Chennai" in result.answer and result.hidden == [1]
    # (with "My sister Lena lives in Graz." in the same window the 270M reader answered "Graz":
    # README, Limits)


def test_the_worked_examples_never_come_back_as_answers(tmp_path, model):
    db = cmc.open_db(tmp_path / "leak.db")
    cmc.add_records(db, [(t, "test") for t in ("My sister Lena lives in Graz.", "The recycling goes out on Wednesdays.",
                                               "[2030-01-04] Pell: see you at the quiz night")])
    cmc.extract_pending(db, model)
    examples = cmc.prompt_template("answer.txt").template.split("End of the examples")[0]
    said = {a.split(":", 1)[1].strip() for a in examples.splitlines() if a.startswith("Answer:")} - {cmc.NOT_IN_MEMORY}
    asked = [q.split(":", 1)[1].strip() for q in examples.splitlines() if q.startswith("Question:")]
    for question in asked + ["Who is my accountant?", "What is my locker code?"]:
        answer = cmc.ask(db, model, question).answer
        assert not any(v.lower() in answer.lower() for v in said), (question, answer)
    assert cmc.ask(db, model, "What is my locker code?").answer == cmc.NOT_IN_MEMORY


def test_a_prompt_longer_than_the_context_reloads_the_model_larger(model):
    small = cmc.LlamaModel(model.path, n_ctx=256)
    prompt = "Notes:\n" + "\n".join(f"- Item {i} is stored in box {i * 7}." for i in range(60)) + "\nItem 3 is stored in box"
    assert len(small._tokens(prompt, "")[0]) > 256
    got = small.complete(prompt, max_tokens=4)
    assert small.n_ctx == 4096, "grown to the next step of 4,096 tokens, not cut to its end"
    assert got.text == model.complete(prompt, max_tokens=4).text
    assert model.n_ctx == cmc.LlamaModel.CONTEXT


def test_a_later_process_loads_the_shared_whole_batches_from_disk_with_the_same_logits(model, tmp_path, monkeypatch):
    import numpy
    first, later = (cmc.extraction_prompt([text], []) for text in ("Mara lives in Leeds.", "Tom works at Acme."))
    writer = cmc.LlamaModel(model.path)
    umask = os.umask(0o022)  # the usual umask: the state computed from prompt text is private regardless
    try:
        writer._feed(*writer._tokens(first, ""))
    finally:
        os.umask(umask)
    (kept,) = (tmp_path / "cache" / "cmc" / "prefix").glob("*.kv")
    assert [stat.S_IMODE(p.stat().st_mode) for p in (kept.parent.parent, kept.parent, kept)] == [0o700, 0o700, 0o600]
    reader = cmc.LlamaModel(model.path)  # a new process, in effect: its own llama.cpp context
    tokens, marks = reader._tokens(later, "")
    restored = reader._feed(tokens, marks).copy()
    fixed = min(marks)
    assert fixed > 2 * reader.llm.n_batch  # the instructions and examples
    assert reader.evaluated == len(tokens) - fixed, "the prompt's fixed part is loaded, not computed"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "empty"))
    fresh = cmc.LlamaModel(model.path)
    assert numpy.array_equal(restored, fresh._feed(tokens, marks)), "to the bit what a fresh process computes"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    kept.write_bytes(b"not a llama.cpp state file")
    broken = cmc.LlamaModel(model.path)
    assert numpy.array_equal(broken._feed(tokens, marks), restored) and broken.evaluated == len(tokens)


def test_what_the_model_computes_for_a_prompt_does_not_depend_on_what_it_read_before(model, tmp_path, monkeypatch):
    import numpy
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "empty"))  # no first batch from disk either
    prompts = [cmc.extraction_prompt([text], []) for text in
               ("Odile keeps her kayak at the north jetty.", "Odile moved her kayak to the south jetty.")]
    used = cmc.LlamaModel(model.path)
    used.complete(prompts[0], max_tokens=24)  # shares the instructions, and its reply is in the cache
    tokens, marks = used._tokens(prompts[1], "")
    before = used.evaluated
    after = used._feed(tokens, marks).copy()
    assert used.evaluated - before == len(tokens) - min(marks), "the shared fixed part is reused, all of it"
    alone = cmc.LlamaModel(model.path)
    assert numpy.array_equal(after, alone._feed(tokens, marks)), "to the bit what the prompt alone gives"
    longer, marks = used._tokens(prompts[1], ' {"status": "')
    before = used.evaluated
    step = used._feed(longer, marks).copy()  # the next step of a reply: the prompt is reused whole
    assert used.evaluated - before == len(longer) - max(marks) < 8
    assert numpy.array_equal(step, cmc.LlamaModel(model.path)._feed(longer, marks))


def extraction_and_answer_prompts(tmp_path):
    """Two prompts of different templates over one invented memory: an extraction, an answer."""
    db = cmc.open_db(tmp_path / "m.db")
    cmc.add_records(db, [("Odile keeps her kayak at the north jetty.", "cli")])
    extract = cmc.extraction_prompt(["Odile moved her kayak to the south jetty."], [])
    return extract, cmc.answer_prompt(cmc.recall(db, "Where is Odile's kayak?"))


def test_switching_back_to_a_prompt_loads_its_fixed_part_kept_with_the_same_logits(model, tmp_path, monkeypatch):
    import numpy
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "kept"))
    extract, answer = extraction_and_answer_prompts(tmp_path)
    used = cmc.LlamaModel(model.path)
    used._feed(*used._tokens(extract, ""))
    used._feed(*used._tokens(answer, ""))  # another prompt's instructions fill the cache
    tokens, marks = used._tokens(extract, "")
    before = used.evaluated
    back = used._feed(tokens, marks).copy()
    assert used.evaluated - before == len(tokens) - min(marks), "the fixed part is loaded from memory, not computed"
    step = used._feed(*used._tokens(extract, ' {"status": "'), fresh=False)  # and a reply goes on from it
    later = cmc.LlamaModel(model.path)  # a later process: both fixed parts are on disk
    for prompt in (answer, extract):
        tokens_, marks_ = later._tokens(prompt, "")
        before = later.evaluated
        later._feed(tokens_, marks_)
        assert later.evaluated - before == len(tokens_) - min(marks_), "loaded from disk, not computed"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "empty"))
    alone = cmc.LlamaModel(model.path)
    assert numpy.array_equal(back, alone._feed(tokens, marks)), "to the bit what the prompt alone gives"
    assert numpy.array_equal(step, alone._feed(*alone._tokens(extract, ' {"status": "'), fresh=False))


def test_a_file_made_another_way_is_not_loaded_and_only_the_newest_files_are_kept(model, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    extract, answer = extraction_and_answer_prompts(tmp_path)
    first = cmc.LlamaModel(model.path)
    first._feed(*first._tokens(extract, ""))
    kept = tmp_path / "cache" / "cmc" / "prefix"
    (made,) = kept.glob("*.kv")
    monkeypatch.setattr(cmc.LlamaModel, "PREFIX_FORMAT", cmc.LlamaModel.PREFIX_FORMAT + 1)
    other = cmc.LlamaModel(model.path)  # a cmc that batches prompts another way
    tokens, marks = other._tokens(extract, "")
    other._feed(tokens, marks)
    assert other.evaluated == len(tokens), "the older format's file is not loaded: computed whole"
    monkeypatch.setattr(cmc.LlamaModel, "PREFIX_FILES", 2)
    other._feed(*other._tokens(answer, ""))  # a third file: the least recently used one goes
    assert len(list(kept.glob("*.kv"))) == 2 and not made.exists()


def test_a_fixed_part_one_token_longer_keeps_a_file_of_its_own(model, tmp_path, monkeypatch):
    # Two prompts of one template can end its fixed part a token apart (where the text after it
    # joins the last token or not). Named by their opening, they shared one file, which the second
    # overwrote with a state of other numbers that the first then loaded.
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    extract, _ = extraction_and_answer_prompts(tmp_path)
    first = cmc.LlamaModel(model.path)
    tokens, marks = first._tokens(extract, "")
    first._feed(tokens, marks)
    kept = tmp_path / "cache" / "cmc" / "prefix"
    (made,) = kept.glob("*.kv")
    before = made.read_bytes()
    later = cmc.LlamaModel(model.path)
    later._feed(tokens, (marks[0] + 1, marks[1]))
    assert made.read_bytes() == before and len(list(kept.glob("*.kv"))) == 2


def test_a_fixed_part_kept_at_install_is_what_a_later_prompt_of_the_template_loads(model, tmp_path, monkeypatch):
    import numpy
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "installed"))
    extract = next(p for p in cmc._fixed_parts() if "JSON" in p)
    assert cmc.LlamaModel(model.path).prepare(extract + "-")  # as warm_prompts does at install
    later = cmc.LlamaModel(model.path)
    tokens, marks = later._tokens(cmc.extraction_prompt(["Odile moved her kayak to the south jetty."], ["moored_at"]), "")
    kept = later._feed(tokens, marks).copy()
    assert later.evaluated == len(tokens) - min(marks), "the whole fixed part loaded, none computed"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "empty"))
    assert numpy.array_equal(kept, cmc.LlamaModel(model.path)._feed(tokens, marks)), "to the bit a fresh process's"


def test_the_llama_cpp_python_internals_cmc_relies_on_are_still_there(model):
    """An upgrade of llama-cpp-python that renames or changes what LlamaModel uses beyond Llama's
    documented methods fails here, saying what to mend, instead of giving other answers."""
    import llama_cpp
    import numpy
    mend = (f"llama-cpp-python {llama_cpp.__version__} (cmc.py was written against "
            f"{cmc._LlamaInternals.WRITTEN_AGAINST}): update {{}} in cmc.py")
    for name in ("llama_get_logits", "llama_model_get_vocab", "llama_vocab_eot", "llama_state_seq_load_file",
                 "llama_state_seq_save_file", "llama_log_set", "llama_log_callback"):
        assert callable(getattr(llama_cpp, name, None)), f"no llama_cpp.{name}: " + mend.format("LlamaModel")
    llm = cmc.LlamaModel(model.path).llm  # its own context: the shared model's cache stays as it was
    for name in ("ctx", "model", "n_batch", "reset", *cmc._LlamaInternals.ATTRIBUTES):
        assert hasattr(llm, name), f"no Llama.{name}: " + mend.format("_LlamaInternals and LlamaModel")
    cache = cmc._LlamaInternals(llm)
    tokens = llm.tokenize(("Notes: " + "Pim keeps a blue lantern in the shed. " * 40).encode(), add_bos=True)
    assert len(tokens) > 2 * llm.n_batch
    llm.reset()
    llm.eval(tokens)
    whole = numpy.ctypeslib.as_array(llama_cpp.llama_get_logits(llm.ctx), shape=(llm.n_vocab(),)).copy()
    assert cache.cached_count() == len(tokens) and list(cache.cached_tokens()) == tokens, \
        "Llama.eval no longer records its tokens in input_ids[:n_tokens]: " + mend.format("_LlamaInternals")
    cache.keep_cached(llm.n_batch)
    llm.eval(tokens[llm.n_batch:])
    again = numpy.ctypeslib.as_array(llama_cpp.llama_get_logits(llm.ctx), shape=(llm.n_vocab(),))
    assert numpy.array_equal(whole, again), ("setting n_tokens no longer keeps just that many cached tokens "
                                             "(Llama.eval drops the KV cache after them): " + mend.format("_LlamaInternals"))
