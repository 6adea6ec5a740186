"""The README's Python examples, run exactly as written (but for where the module was built),
with the output the README shows in its comments."""

import os
import re
import subprocess

from conftest import ROOT


def python_section_blocks():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("\n## Python\n"):]
    section = section[:section.index("\n## ", 1)]
    return re.findall(r"```sh\n(.*?)```", section, re.S)


def test_readme_python_examples_run_and_print_what_they_show():
    blocks = python_section_blocks()
    assert len(blocks) == 2
    module_dir = os.environ.get("PYTHONPATH", str(ROOT / "build" / "python")).split(os.pathsep)[0]
    for block in blocks:
        script = block.replace("PYTHONPATH=build/python", f"PYTHONPATH={module_dir}")
        p = subprocess.run(["bash", "-c", script], cwd=ROOT, capture_output=True, text=True,
                           check=False)
        assert p.returncode == 0, p.stderr
        shown = block[block.rindex("\nEOF\n") + 5:]
        expected = [line[2:] for line in shown.splitlines() if line.startswith("# ")]
        assert expected, "each example shows its output"
        # long lines are wrapped in the comments: compared with whitespace normalized
        assert " ".join(p.stdout.split()) == " ".join(" ".join(expected).split())
