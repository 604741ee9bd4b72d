import re, uuid
import pytest
@pytest.mark.timeout(1800)
def test_405(app, line, client):
    doc = client.get("/openapi.json").json
    auth = {"Authorization": f"Bearer {line.owner['token']}"}
    bodies = [("{", "application/json"), ("x", "text/plain"), ('{"zz": 1}', "application/json"), ("[" * 100 + "]" * 100, "application/json"),
              ("a" * (2 << 20), "application/json"), ("--b\r\n", "multipart/form-data; boundary=b"), ("", None), ("a=1", "application/x-www-form-urlencoded")]
    seen = set()
    for path, item in doc["paths"].items():
        for idv in (str(uuid.uuid4()), "0"):
            concrete = re.sub(r"\{org_id\}", line.org_id, path)
            concrete = re.sub(r"\{phone_number_pk\}", line.number["id"], concrete)
            concrete = re.sub(r"\{[a-z_]+\}", idv, concrete)
            for method in ("put", "patch", "delete", "post", "get"):
                if method in item:
                    continue
                for q in ("", "?take=abc&cursor=%%%"):
                    for hdrs in (auth, {}):
                        for body, ctype in bodies:
                            h = dict(hdrs)
                            if ctype: h["Content-Type"] = ctype
                            r = client.open(concrete + q, method=method.upper(), data=body, headers=h)
                            if r.status_code not in (405,) and (method, path, r.status_code) not in seen:
                                seen.add((method, path, r.status_code))
                                print(method.upper(), path, idv, q, bool(hdrs), (ctype, body[:10]), r.status_code, r.get_data(as_text=True)[:120])
