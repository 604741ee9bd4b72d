def test_k(app, line, client):
    auth = {"Authorization": f"Bearer {line.owner['token']}"}
    for path, body in ((f"/organizations/{line.org_id}/webhooks-outbound", {"url": "http://[zz:1]/x", "events": ["message.created"]}),
                       ("/push/subscribe", {"endpoint": "https://[zz:1]/x", "p256dh": "a", "auth": "b"}),
                       (f"/organizations/{line.org_id}/bot/knowledge/url", {"url": "http://[1:2:3:4:5:6:7:8]:99999/x"}),
                       (f"/organizations/{line.org_id}/link-pages", {"handle": "abcd", "title": "x", "items": [{"label": "a", "url": "http://[f3C2D378b:11A1987EA9FabFDdC]"}]})):
        r = client.post(path, json=body, headers=auth)
        print(path, r.status_code, r.get_data(as_text=True)[:200])
