"""docs/scenarios.md's annotated examples are the shipped scenarios they say they are: each
example's steps, in order, are steps of its file (the start of it, where the title says so)."""

import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "scenarios.md").read_text()
EXAMPLES = re.findall(r"^### [^\n]*\((the start of |from )?(tests/scenarios/[\w-]+\.yaml)"
                      r"[^\n]*\n+```yaml\n(.*?)```", DOC, re.M | re.S)


def test_the_doc_has_its_examples():
    assert len(EXAMPLES) >= 3


@pytest.mark.parametrize("how, path, block", EXAMPLES, ids=[e[1] for e in EXAMPLES])
def test_an_example_is_its_file(how, path, block):
    shown = yaml.safe_load(block)
    kept = yaml.safe_load((ROOT / path).read_text())
    assert shown["game"] == kept["game"] and shown.get("board") == kept.get("board")
    steps, every = shown["steps"], kept["steps"]
    if how == "the start of ":
        assert steps == every[:len(steps)]
    elif how == "from ":  # some of its steps, in their order
        left = iter(every)
        assert all(step in left for step in steps), "%s: a step not in the file" % path
    else:
        assert steps == every
