#!/usr/bin/env python3
"""The error that --timing-sample adds: compares two `warpsim correlate --json` outputs, one of
full simulation and one sampled, problem by problem (card, size), and prints each problem's
predicted cycles, the sampled one's error against full simulation, and the mean and largest
error over the problems that sampling changed (grids of more waves than the sample).

  build/bin/warpsim correlate --max-threads 300000 --json > /tmp/full.json
  build/bin/warpsim correlate --max-threads 300000 --timing-sample 1 --json > /tmp/s1.json
  python3 scripts/sample_error.py /tmp/full.json /tmp/s1.json
"""
import json
import sys


def main(full_path, sampled_path):
    full = json.load(open(full_path))
    sampled = json.load(open(sampled_path))
    by_key = {(p["card"], p["size"]): p for p in sampled["problems"]}
    errors = []
    print(f'{"card":22} {"size":>9} {"full":>11} {"sampled":>11} {"error":>7}')
    for p in full["problems"]:
        s = by_key.get((p["card"], p["size"]))
        if not s or p.get("error") or s.get("error") or p["predicted_cycles"] <= 0:
            continue
        err = (s["predicted_cycles"] - p["predicted_cycles"]) / p["predicted_cycles"]
        changed = s["predicted_cycles"] != p["predicted_cycles"]
        if changed:
            errors.append(abs(err))
        print(f'{p["card"]:22} {p["size"]:>9} {p["predicted_cycles"]:>11.0f} '
              f'{s["predicted_cycles"]:>11.0f} {100 * err:>6.1f}%{"" if changed else "  (whole)"}')
    n = len(full["problems"])
    if errors:
        print(f"sampled {len(errors)} of {n} problems: mean |error| "
              f"{100 * sum(errors) / len(errors):.1f}%, largest {100 * max(errors):.1f}%")
    else:
        print(f"no problem of {n} had more waves than the sample")
    print(f'MAPE against the chip: full {100 * full["summary"]["mape"]:.1f}%, '
          f'sampled {100 * sampled["summary"]["mape"]:.1f}%')


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: sample_error.py FULL.json SAMPLED.json")
    main(sys.argv[1], sys.argv[2])
