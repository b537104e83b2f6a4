"""Re-runs every derivation script with --check: each recomputes the header lines of its
golden programs by the independent route (hand translation over Fraction / float, no
Adora) and compares them with the files. Exit status 1 on any difference."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = ["basics.py", "scalar.py", "arrays.py", "gather_scatter.py",
           "conv_linalg_networks.py", "soacs.py", "control_tuples_numeric.py", "edge_cases.py",
           "linear.py", "dual.py", "inferred.py", "sizes.py", "futhark_ad.py",
           "futhark_ad_hist.py", "seed004.py", "workloads.py", "nonfinite.py", "tssa.py"]

failed = False
derived = set()
for s in SCRIPTS:
    r = subprocess.run([sys.executable, os.path.join(HERE, s), "--check"], capture_output=True, text=True)
    sys.stdout.write(r.stdout)
    sys.stderr.write(r.stderr)
    failed |= r.returncode != 0
    derived |= {line.split()[1] for line in r.stdout.splitlines() if line.startswith(("ok ", "MISMATCH "))}
specs = os.path.dirname(HERE)
files = {os.path.relpath(os.path.join(d, f), specs)
         for d, _, fs in os.walk(os.path.join(specs, "programs")) for f in fs if f.endswith(".adl")}
for f in sorted(files - derived):
    print(f"NOT DERIVED {f}")
    failed = True
print(f"{'FAILED' if failed else 'all ok'}; {len(files)} golden programs, {len(derived)} derived")
sys.exit(1 if failed else 0)
