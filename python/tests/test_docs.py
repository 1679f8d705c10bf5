"""Every ```python snippet of docs/python.md runs, in order, and passes
(the torch ones where torch is installed)."""

import importlib.util
import os
import pathlib
import re

import pytest

DOC = pathlib.Path(os.environ.get("ENS_SOURCE_DIR", pathlib.Path(__file__).parents[2])) / "docs" / "python.md"


def snippets():
    return re.findall(r"^```python\n(.*?)^```", DOC.read_text(), re.S | re.M)


def test_the_doc_has_snippets():
    assert len(snippets()) >= 4


def test_snippets_run_in_order():
    # Later snippets use what earlier ones made, as a reader runs them.
    namespace = {"__name__": "__doc__"}
    for index, code in enumerate(snippets()):
        if "torch" in code and importlib.util.find_spec("torch") is None:
            pytest.skip("the torch snippets need torch")
        exec(compile(code, f"{DOC}:snippet{index}", "exec"), namespace)
