"""numpy's BLAS runs on one thread in every appliance process (appliance/__init__.py): its
per-core threads spin while they wait and tripled the CPU of each question's embedding. A value
set by whoever starts the process wins."""

import os
import subprocess
import sys

PROBE = ("import os, appliance, numpy\n"
         "print(os.environ['OPENBLAS_NUM_THREADS'])\n")


def _probe(env: dict) -> str:
    clean = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    done = subprocess.run([sys.executable, "-c", PROBE], env={**clean, **env}, capture_output=True, text=True,
                          timeout=60, check=True)
    return done.stdout.strip()


def test_an_appliance_process_runs_blas_on_one_thread():
    assert _probe({}) == "1"


def test_a_thread_count_from_the_environment_is_kept():
    assert _probe({"OPENBLAS_NUM_THREADS": "2"}) == "2"
