"""scripts/readme_examples.py, which runs the README's examples in CI: its markers and checks,
on small READMEs of its own (the real README is the readme_examples ctest)."""

import subprocess
import sys

from conftest import ROOT

SCRIPT = ROOT / "scripts" / "readme_examples.py"


def run(tmp_path, readme):
    path = tmp_path / "README.md"
    path.write_text(readme, encoding="utf-8")
    return subprocess.run([sys.executable, str(SCRIPT), "--readme", str(path)],
                          capture_output=True, text=True, check=False, timeout=60)


GOOD = """# t

```sh
true && echo plain
```

<!-- readme-examples: exit 3 -->
```sh
echo expected to fail; exit 3
```

<!-- readme-examples: skip (needs a GPU) -->
```sh
exit 1
```

```sh
python3 - <<'EOF'
print("a  b")
print("c")
EOF
# a b
# c
```
"""


def test_markers_and_shown_output(tmp_path):
    p = run(tmp_path, GOOD)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "README.md:13: skip (needs a GPU): exit 1" in p.stdout
    assert "readme_examples: 3 blocks run, 0 failed, 1 skipped" in p.stdout


def test_a_failing_example_fails(tmp_path):
    p = run(tmp_path, GOOD.replace("exit 3\n```", "exit 4\n```"))
    assert p.returncode == 1
    assert "exit status 4, the README says 3" in p.stdout
    p = run(tmp_path, GOOD.replace("true && echo", "false && echo"))
    assert p.returncode == 1 and "exit status 1, the README says 0" in p.stdout


def test_output_that_differs_from_what_the_readme_shows_fails(tmp_path):
    p = run(tmp_path, GOOD.replace("# c\n", "# d\n"))
    assert p.returncode == 1
    assert "its output is not what the README shows" in p.stdout


def test_bad_markers_are_usage_errors(tmp_path):
    p = run(tmp_path, GOOD.replace("skip (needs a GPU)", "skip"))
    assert p.returncode == 2 and "a skipped example must say why" in p.stderr
    p = run(tmp_path, GOOD.replace("exit 3 -->", "exit three -->"))
    assert p.returncode == 2 and "'exit' takes the expected status" in p.stderr
    p = run(tmp_path, GOOD.replace("skip (needs a GPU)", "skipp (x)"))
    assert p.returncode == 2 and "marker must read" in p.stderr
