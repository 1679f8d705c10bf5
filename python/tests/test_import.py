"""`import ens` stays light: it never imports torch."""

import os
import subprocess
import sys

# Records every attempt to import torch (installed or not) and runs
# `import ens`.
PROBE = """
import sys
attempts = []
class Probe:
    def find_spec(self, name, path=None, target=None):
        if name == "torch" or name.startswith("torch."):
            attempts.append(name)
        return None
sys.meta_path.insert(0, Probe())
import ens
ens.Context()
assert attempts == [], attempts
assert "torch" not in sys.modules
print("ok")
"""


def test_import_ens_does_not_import_torch():
    result = subprocess.run([sys.executable, "-c", PROBE], capture_output=True,
                            text=True, env=dict(os.environ))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def test_the_probe_sees_an_import_of_torch():
    # The probe itself can fail: importing torch trips it.
    probe = PROBE.replace("import ens\n", "import ens\ntry:\n    import torch\nexcept ImportError:\n    pass\n")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True,
                            text=True, env=dict(os.environ))
    assert result.returncode != 0
    assert "torch" in result.stderr
