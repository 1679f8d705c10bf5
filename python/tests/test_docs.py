"""Every ```python snippet of docs/python.md runs, in order, and passes."""

import os
import pathlib
import re

import pytest

DOC = pathlib.Path(os.environ.get("ENS_SOURCE_DIR", pathlib.Path(__file__).parents[2])) / "docs" / "python.md"


def snippets():
    return re.findall(r"^```python\n(.*?)^```", DOC.read_text(), re.S | re.M)


def test_the_doc_has_snippets():
    assert len(snippets()) >= 4


@pytest.mark.parametrize("index", range(len(snippets())))
def test_snippet_runs(index):
    code = snippets()[index]
    exec(compile(code, f"{DOC}:snippet{index}", "exec"), {"__name__": "__doc__"})
