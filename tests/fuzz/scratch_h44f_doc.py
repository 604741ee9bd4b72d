import json
def test_doc(client):
    doc = client.get("/openapi.json").json
    json.dump(doc, open("/tmp/h44f/openapi.json", "w"), indent=1)
