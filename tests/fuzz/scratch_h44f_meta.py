import schemathesis
from schemathesis import GenerationMode
from schemathesis.config import GenerationConfig
def test_meta(app):
    schema = schemathesis.openapi.from_wsgi("/openapi.json", app)
    op = [r.ok() for r in schema.get_all_operations() if r.ok().label == "GET /organizations/{org_id}/tasks"][0]
    for case in schema.iter_coverage_cases(op, generation_modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE], generation_config=GenerationConfig(with_security_parameters=False)):
        print(case.meta.generation.mode.value, {k.value: v.mode.value for k, v in case.meta.components.items()}, case.meta.phase.data.scenario, getattr(case.meta.phase.data, "parameter", None), case.method, case.path_parameters, case.query)
