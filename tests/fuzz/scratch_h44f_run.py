import time, collections, json, os
import schemathesis
from schemathesis import GenerationMode
from schemathesis.config import GenerationConfig
from schemathesis.core.failures import FailureGroup
from tests.fuzz.test_openapi_fuzz import ENDS_THE_RUN

ONLY = os.environ.get("FUZZ_ONLY", "")
OUT = os.environ.get("OUT", "/tmp/h44f/run.json")

import pytest
@pytest.mark.timeout(3600)
def test_run(app, line):
    schema = schemathesis.openapi.from_wsgi("/openapi.json", app)
    ops = [r.ok() for r in schema.get_all_operations()]
    auth = {"Authorization": f"Bearer {line.owner['token']}"}
    pinned = {"org_id": line.org_id, "phone_number_pk": line.number["id"]}
    results = {}
    t = time.time()
    ncases = 0
    statuses = collections.Counter()
    for op in ops:
        if op.label in ENDS_THE_RUN or ONLY not in op.label:
            continue
        fails = []
        for case in schema.iter_coverage_cases(op, generation_modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE], generation_config=GenerationConfig(with_security_parameters=False)):
            data = case.meta.phase.data
            mutated = getattr(data, "parameter", None) if case.meta.generation.mode.is_negative else None
            for name, value in pinned.items():
                if name in (case.path_parameters or {}) and name != mutated:
                    case.path_parameters[name] = value
            generated = {n.lower() for n in (case.headers or {})}
            ncases += 1
            try:
                resp = case.call(headers=auth)
                statuses[(op.label, case.meta.generation.mode.value, resp.status_code)] += 1
                case.validate_response(resp, headers=auth) if True else case.call_and_validate(headers=auth)
            except FailureGroup as exc:
                for f in exc.exceptions:
                    fails.append({"mode": case.meta.generation.mode.value, "check": type(f).__name__, "title": f.title,
                                  "msg": str(f.message)[:300], "desc": getattr(data, "description", None),
                                  "method": case.method, "q": repr(case.query)[:200], "body": repr(case.body)[:300],
                                  "path": repr(case.path_parameters)[:200]})
            except Exception as exc:
                fails.append({"check": "EXC", "msg": repr(exc)[:300]})
        if fails:
            results[op.label] = fails
    print("cases", ncases, "time", time.time() - t)
    json.dump(results, open(OUT, "w"), indent=1)
    json.dump([[*k, v] for k, v in statuses.items()], open(OUT + ".statuses", "w"))
