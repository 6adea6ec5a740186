#!/usr/bin/env python3
"""Runs every ```sh block of README.md from the repository root, exactly as written, and fails
when one does not exit as the README says it does.

A block runs under `bash -e -o pipefail` and must exit 0. A marker on the line just before its
fence changes that (an HTML comment, invisible when the README is rendered):

    <!-- readme-examples: skip (WHY) -->   not run: it needs a GPU, the network or a long time
    <!-- readme-examples: exit N -->        run without -e; the block's last command exits N

A here-document example (`python3 - <<'EOF' ... EOF`) followed by `# ` comment lines must print
what they show (whitespace normalized).

--build DIR runs the examples against another build tree: `build/` at the start of a word is
replaced by DIR/ (the README's commands use the default tree, build/). --list prints the blocks
and what would happen to each. Exit status: 0 all ran as shown, 1 one did not, 2 usage.
"""

import argparse
import pathlib
import re
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
FENCE = re.compile(r"^```sh\n(.*?)^```\n", re.S | re.M)
MARKER = re.compile(r"<!--\s*readme-examples:\s*(skip|exit)\b\s*(.*?)\s*-->\s*\n$")


class Block:
    def __init__(self, text, line, action, argument):
        self.text = text
        self.line = line  # the fence's line number in README.md
        self.action = action  # "run", "skip" or "exit"
        self.argument = argument  # the skip's reason, or the expected exit status

    def expected_status(self):
        return int(self.argument) if self.action == "exit" else 0


def readme_blocks(readme):
    """Every ```sh block of the README with what its marker asks; ValueError on a bad marker."""
    text = readme.read_text(encoding="utf-8")
    blocks = []
    for m in FENCE.finditer(text):
        before = text[:m.start()]
        line = before.count("\n") + 1
        previous = before[before.rstrip("\n").rfind("\n") + 1:]
        marker = MARKER.search(previous)
        if marker is None:
            if "readme-examples" in previous:
                raise ValueError(f"{readme}:{line - 1}: a readme-examples marker must read "
                                 "'<!-- readme-examples: skip (WHY) -->' or "
                                 "'<!-- readme-examples: exit N -->'")
            blocks.append(Block(m.group(1), line, "run", ""))
            continue
        action, argument = marker.group(1), marker.group(2)
        if action == "skip" and argument.startswith("(") and argument.endswith(")"):
            argument = argument[1:-1].strip()
        if action == "skip" and not argument:
            raise ValueError(f"{readme}:{line - 1}: a skipped example must say why")
        if action == "exit" and not argument.isdigit():
            raise ValueError(f"{readme}:{line - 1}: 'exit' takes the expected status, "
                             f"not '{argument}'")
        blocks.append(Block(m.group(1), line, action, argument))
    return blocks


def retarget(script, build):
    """The script with the README's build tree, build/, replaced by `build`."""
    if build == "build":
        return script
    return re.sub(r"(?<![\w./-])build/", build.rstrip("/") + "/", script)


def run_block(block, build, timeout):
    """(ok, seconds, report) for one block."""
    script = retarget(block.text, build)
    shell = ["bash", "-o", "pipefail", "-c", script]
    if block.action == "run":
        shell.insert(1, "-e")
    start = time.monotonic()
    try:
        p = subprocess.run(shell, cwd=ROOT, capture_output=True, text=True, timeout=timeout,
                           check=False)
    except subprocess.TimeoutExpired:
        return False, time.monotonic() - start, f"ran past {timeout} s"
    seconds = time.monotonic() - start
    tail = f"\n--- stdout (end)\n{p.stdout[-2000:]}\n--- stderr (end)\n{p.stderr[-2000:]}"
    if p.returncode != block.expected_status():
        return False, seconds, (f"exit status {p.returncode}, the README says "
                                f"{block.expected_status()}{tail}")
    shown = shown_output(block.text)
    if shown is not None and " ".join(p.stdout.split()) != " ".join(shown.split()):
        return False, seconds, f"its output is not what the README shows:\n{shown}{tail}"
    return True, seconds, ""


def shown_output(text):
    """What a here-document example prints, as the README shows it: the `# ` lines after its
    closing EOF (compared with whitespace normalized: long lines are wrapped there). None for a
    block that shows no output this way."""
    end = text.rfind("\nEOF\n")
    if end < 0:
        return None
    lines = [line[2:] for line in text[end + 5:].splitlines() if line.startswith("# ")]
    return " ".join(lines) if lines else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--readme", default=str(ROOT / "README.md"))
    parser.add_argument("--build", default="build", help="the build tree (default: build)")
    parser.add_argument("--timeout", type=float, default=120, help="seconds per block")
    parser.add_argument("--list", action="store_true", help="list the blocks, run nothing")
    options = parser.parse_args()
    try:
        blocks = readme_blocks(pathlib.Path(options.readme))
    except (OSError, ValueError) as e:
        print(f"readme_examples: {e}", file=sys.stderr)
        return 2
    if not blocks:
        print(f"readme_examples: no ```sh block in {options.readme}", file=sys.stderr)
        return 2
    failed = ran = 0
    for b in blocks:
        first = b.text.strip().splitlines()[0] if b.text.strip() else ""
        where = f"README.md:{b.line}"
        if options.list or b.action == "skip":
            what = f"skip ({b.argument})" if b.action == "skip" else \
                f"run, expects exit {b.expected_status()}"
            print(f"{where}: {what}: {first}")
            continue
        ok, seconds, report = run_block(b, options.build, options.timeout)
        ran += 1
        print(f"{where}: {'ok' if ok else 'FAILED'} in {seconds:.1f} s: {first}")
        if not ok:
            failed += 1
            print(report)
    if not options.list:
        print(f"readme_examples: {ran} blocks run, {failed} failed, "
              f"{sum(b.action == 'skip' for b in blocks)} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
