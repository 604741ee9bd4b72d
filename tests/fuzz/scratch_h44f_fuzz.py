import time, collections, json, os
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings as hs
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.core.failures import FailureGroup
from tests.fuzz.test_openapi_fuzz import ENDS_THE_RUN

ONLY = os.environ.get("FUZZ_ONLY", "")
OUT = os.environ.get("OUT", "/tmp/h44f/fuzz.json")
LABELS = set(open(os.environ["LABELS"]).read().splitlines()) if os.environ.get("LABELS") else set()
N = int(os.environ.get("N", "20"))

@pytest.mark.timeout(7200)
def test_run(app, line):
    schema = schemathesis.openapi.from_wsgi("/openapi.json", app)
    schema.config.generation.update(with_security_parameters=False)
    ops = [r.ok() for r in schema.get_all_operations()]
    auth = {"Authorization": f"Bearer {line.owner['token']}"}
    pinned = {"org_id": line.org_id, "phone_number_pk": line.number["id"]}
    results = {}
    times = {}
    t = time.time()
    for op in ops:
        if op.label in ENDS_THE_RUN or ONLY not in op.label or (LABELS and op.label not in LABELS):
            continue
        fails = []
        t_op = time.time()
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            @given(case=op.as_strategy(generation_mode=mode))
            @hs(max_examples=N, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
            def run(case):
                data = case.meta.phase.data
                comps = case.meta.components
                path_negative = any(getattr(loc, "value", loc) == "path" and info.mode.is_negative for loc, info in comps.items())
                for name, value in pinned.items():
                    if name in (case.path_parameters or {}) and not path_negative:
                        case.path_parameters[name] = value
                resp = None
                try:
                    resp = case.call(headers=auth)
                    case.validate_response(resp, headers=auth, transport_kwargs={"headers": auth})
                except FailureGroup as exc:
                    for f in exc.exceptions:
                        fails.append({"mode": mode.value, "check": type(f).__name__, "title": f.title,
                                      "msg": str(f.message)[:300], "method": case.method, "q": repr(case.query)[:300],
                                      "body": repr(case.body)[:400], "status": resp.status_code, "resp": resp.text[:400], "path": repr(case.path_parameters)[:200]})
                except Exception as exc:
                    fails.append({"check": "EXC", "msg": repr(exc)[:300]})
            try:
                run()
            except Unsatisfiable:
                pass
        times[op.label] = time.time() - t_op
        if fails:
            results[op.label] = fails
    print("time", time.time() - t)
    json.dump(results, open(OUT, "w"), indent=1)
    json.dump(times, open(OUT + ".times", "w"), indent=1)
