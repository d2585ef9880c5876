"""The claims register (harness/claims_register/*.yaml): well-formed, unique ids, and every
quote verbatim in its line of the thesis or lecture text (issue 51)."""

import os
from pathlib import Path

import pytest

from harness.register import (
    QUANTIFIERS, REGISTER_DIR, THESIS, RegisterError, load_register, verify_quotes,
)

SEEDS = Path(os.environ.get("HARNESS_SEEDS")
             or Path(__file__).resolve().parents[2] / "shared" / "seeds")


def test_the_register_loads_and_covers_chapters_2_to_4():
    entries = load_register()
    thesis = [e for e in entries.values() if e.kind == "thesis"]
    sections = {e.section.split(".")[0] for e in thesis}
    assert {"2", "3", "4"} <= sections
    assert len(thesis) >= 200 and all(e.id.startswith("s") for e in thesis)
    lectures = [e for e in entries.values() if e.kind == "lecture"]
    assert lectures and all(e.id.startswith("lec-") for e in lectures)
    assert {e.quantifier for e in entries.values()} <= set(QUANTIFIERS)


def test_every_quote_is_verbatim_in_its_line():
    if not (SEEDS / THESIS).is_file():
        pytest.skip(f"the thesis text is not at {SEEDS} (a copy of shared/ beside the "
                    f"repository, or $HARNESS_SEEDS, provides it)")
    assert verify_quotes(load_register(), SEEDS) == []


def test_a_quote_not_in_its_line_is_named(tmp_path):
    (tmp_path / "t.txt").write_text("first line\nLMNN clearly outperforms LDA\n")
    entries = load_register()
    one = next(iter(entries.values()))
    import dataclasses
    good = dataclasses.replace(one, source="t.txt", line=2, quote="clearly outperforms")
    bad = dataclasses.replace(one, id="x", source="t.txt", line=1, quote="clearly")
    assert verify_quotes({"a": good}, tmp_path) == []
    assert verify_quotes({"x": bad}, tmp_path) == [
        "x: quote not verbatim in line 1 of t.txt: 'clearly'"]


@pytest.mark.parametrize("change, message", [
    ({"quantifier": "all"}, "quantifier 'all' is not one of"),
    ({"id": "Bad Id"}, "kebab-case"),
    ({"decidable": "maybe"}, "decidable must be 'yes'"),
    ({"readings": [{"name": "a"}]}, "each reading has exactly the keys"),
    ({"extra": 1}, "unknown keys \\['extra'\\]"),
])
def test_a_malformed_entry_is_named_with_the_fix(tmp_path, change, message):
    import yaml
    raw = yaml.safe_load((REGISTER_DIR / "chapter_2.yaml").read_text())[0]
    (tmp_path / "x.yaml").write_text(yaml.safe_dump([{**raw, **change}]))
    with pytest.raises(RegisterError, match=message):
        load_register(tmp_path)


def test_an_id_used_twice_is_refused(tmp_path):
    import yaml
    raw = yaml.safe_load((REGISTER_DIR / "chapter_2.yaml").read_text())[0]
    (tmp_path / "a.yaml").write_text(yaml.safe_dump([raw]))
    (tmp_path / "b.yaml").write_text(yaml.safe_dump([raw]))
    with pytest.raises(RegisterError, match="is used twice"):
        load_register(tmp_path)
