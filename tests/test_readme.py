"""The README's set-up commands and quickstart must stay true."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
CI = ROOT / ".ci" / "run"


def code_blocks(text: str):
    return re.findall(r"```(?:\w*)\n(.*?)```", text, flags=re.S)


def test_ci_runs_the_readme_test_command_verbatim():
    blocks = [b.strip() for b in code_blocks(README.read_text())]
    test_commands = [b for b in blocks if b.startswith("python3 -m venv") and "pytest" in b]
    assert len(test_commands) == 1, "the README must show exactly one test command"
    assert test_commands[0] in CI.read_text().splitlines()


def test_readme_has_the_main_job_command():
    blocks = [b.strip() for b in code_blocks(README.read_text())]
    assert any(b.startswith("python3 -m venv") and "aiplay play" in b for b in blocks)


def test_quickstart_runs():
    python_blocks = [b for b in re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)]
    assert python_blocks, "the README must have a Python quickstart"
    exec(compile(python_blocks[0], "README quickstart", "exec"), {})
