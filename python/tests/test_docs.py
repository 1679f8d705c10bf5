"""Every ```python snippet of docs/python.md and docs/tutorial.md runs, in
order, and passes (the torch ones where torch is installed)."""

import importlib.util
import os
import pathlib
import re

import pytest

DOCS = pathlib.Path(os.environ.get("ENS_SOURCE_DIR", pathlib.Path(__file__).parents[2])) / "docs"
DOC = DOCS / "python.md"
TUTORIAL = DOCS / "tutorial.md"


def snippets(doc=DOC):
    return re.findall(r"^```python\n(.*?)^```", doc.read_text(), re.S | re.M)


def test_the_doc_has_snippets():
    assert len(snippets()) >= 4
    assert len(snippets(TUTORIAL)) >= 1


@pytest.mark.parametrize("doc", [DOC, TUTORIAL], ids=["python.md", "tutorial.md"])
def test_snippets_run_in_order(doc):
    # Later snippets use what earlier ones made, as a reader runs them.
    namespace = {"__name__": "__doc__"}
    for index, code in enumerate(snippets(doc)):
        if "torch" in code and importlib.util.find_spec("torch") is None:
            pytest.skip("the torch snippets need torch")
        exec(compile(code, f"{doc}:snippet{index}", "exec"), namespace)
