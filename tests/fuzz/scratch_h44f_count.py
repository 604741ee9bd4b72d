import time, collections, json
import schemathesis
from schemathesis import GenerationMode
from schemathesis.config import GenerationConfig

def test_count(app):
    schema = schemathesis.openapi.from_wsgi("/openapi.json", app)
    ops = [r.ok() for r in schema.get_all_operations()]
    print("operations", len(ops))
    t = time.time()
    counts = {}
    for op in ops:
        t0 = time.time()
        n = collections.Counter()
        for case in schema.iter_coverage_cases(op, generation_modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE], generation_config=GenerationConfig()):
            n[case.meta.generation.mode.value] += 1
        counts[op.label] = (dict(n), round(time.time() - t0, 2))
    print("total gen time", time.time() - t)
    json.dump(counts, open("/tmp/h44f/counts.json", "w"), indent=1)
