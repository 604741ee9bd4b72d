"""Contact lists: create, members by id, CSV import as spreadsheets write it, bulk removal by ids
and by filter; nothing half-done on bad input; other tenants see nothing."""

import io

from tests.problems import assert_problem


class Lists:
    def __init__(self, api, owner):
        self.api, self.owner = api, owner
        self.base = f"/organizations/{owner['org']['id']}"

    def create(self, name="Clientes VIP", **extra):
        answer = self.api.post(f"{self.base}/contact-lists", {"name": name, **extra}, token=self.owner["token"])
        assert answer.status_code == 201, answer.json
        return answer.json["data"]

    def contact(self, wa_id, **extra):
        return self.api.post(f"{self.base}/contacts", {"waId": wa_id, **extra}, token=self.owner["token"]).json["data"]

    def members(self, list_id, query=""):
        answer = self.api.get(f"{self.base}/contacts?listId={list_id}&take=200{query}", token=self.owner["token"])
        assert answer.status_code == 200, answer.json
        return sorted(c["waId"] for c in answer.json["data"]["items"])

    def import_csv(self, list_id, content: bytes, *, query="", as_form=True, content_type="text/csv"):
        headers = {"Authorization": f"Bearer {self.owner['token']}"}
        url = f"{self.base}/contact-lists/{list_id}/import{query}"
        if as_form:
            return self.api.client.post(url, data={"file": (io.BytesIO(content), "clientes.csv", content_type)},
                                        headers=headers, content_type="multipart/form-data")
        return self.api.client.post(url, data=content, headers={**headers, "Content-Type": content_type})

    def call(self, method, path, body=None):
        return self.api.client.open(f"{self.base}/contact-lists{path}", method=method, json=body,
                                    headers={"Authorization": f"Bearer {self.owner['token']}"})


def test_lists_and_members(api, owner):
    lists = Lists(api, owner)
    vip = lists.create(description="Compran cada semana")
    assert vip["memberCount"] == 0
    assert lists.call("POST", "", {"name": "clientes vip"}).json["code"] == "contact_list_name_taken"
    ana, luis = lists.contact("5215500000001", name="Ana"), lists.contact("5215500000002", name="Luis")
    added = lists.call("POST", f"/{vip['id']}/members", {"contactIds": [ana["id"], luis["id"], ana["id"]]})
    assert added.status_code == 200 and added.json["data"] == {"added": 2, "alreadyMembers": 0}
    assert lists.call("POST", f"/{vip['id']}/members", {"contactIds": [ana["id"]]}).json["data"] == {
        "added": 0, "alreadyMembers": 1}
    unknown = lists.call("POST", f"/{vip['id']}/members", {"contactIds": [luis["id"], "00000000-0000-0000-0000-000000000009"]})
    assert_problem(unknown, 404, "contact_not_found")
    assert lists.members(vip["id"]) == ["5215500000001", "5215500000002"]
    assert [(item["name"], item["memberCount"]) for item in lists.call("GET", "").json["data"]] == [("Clientes VIP", 2)]
    removed = lists.call("DELETE", f"/{vip['id']}/members", {"contactIds": [luis["id"]]})
    assert removed.json["data"] == {"removed": 1}
    renamed = lists.call("PATCH", f"/{vip['id']}", {"name": "Frecuentes"})
    assert renamed.json["data"]["name"] == "Frecuentes" and renamed.json["data"]["memberCount"] == 1
    assert lists.call("DELETE", f"/{vip['id']}").status_code == 204
    assert lists.call("GET", f"/{vip['id']}").json["code"] == "contact_list_not_found"
    assert api.get(f"{lists.base}/contacts/{ana['id']}", token=owner["token"]).status_code == 200  # contacts stay


def test_csv_import_as_spreadsheets_write_it(api, owner):
    lists = Lists(api, owner)
    target = lists.create()
    known = lists.contact("5215500000001", name="Ana (CRM)", attributes={"origen": "web"})
    excel = ("Teléfono;Nombre;Ciudad\r\n"
             "+52 1 55 0000 0001;Ana Pérez;CDMX\r\n"
             "52 1 55 0000 0002;José Núñez;Monterrey\r\n"
             "\r\n"
             "no sé;Nadie;\r\n"
             "5215500000002;José otra vez;\r\n").encode("cp1252")
    answer = lists.import_csv(target["id"], excel)
    assert answer.status_code == 200, answer.json
    assert answer.json["data"] == {"rows": 4, "created": 1, "updated": 0, "added": 2, "alreadyMembers": 0,
                                   "rejected": 2, "rejections": [
                                       {"line": 5, "reason": "not a phone number with country code"},
                                       {"line": 6, "reason": "the same number appears earlier in the file"}]}
    assert lists.members(target["id"]) == ["5215500000001", "5215500000002"]
    contacts = {c["waId"]: c for c in api.get(f"{lists.base}/contacts", token=owner["token"]).json["data"]["items"]}
    assert contacts["5215500000002"]["name"] == "José Núñez"
    assert contacts["5215500000002"]["attributes"] == {"Ciudad": "Monterrey"}
    assert contacts["5215500000001"]["name"] == "Ana (CRM)"  # known contacts keep their data by default

    utf8_again = "\ufeffphone,name,Ciudad\n5215500000001,Ana Pérez,CDMX\n".encode()
    updated = lists.import_csv(target["id"], utf8_again, query="?updateExisting=true", as_form=False)
    assert updated.status_code == 200, updated.json
    assert (updated.json["data"]["updated"], updated.json["data"]["alreadyMembers"]) == (1, 1)
    ana = api.get(f"{lists.base}/contacts/{known['id']}", token=owner["token"]).json["data"]
    assert ana["name"] == "Ana Pérez" and ana["attributes"] == {"origen": "web", "Ciudad": "CDMX"}

    headerless = lists.import_csv(target["id"], b"5215500000003,Marta\n5215500000004\n")
    assert headerless.json["data"]["created"] == 2
    assert len(lists.members(target["id"])) == 4


def test_bad_imports_change_nothing(api, owner, settings):
    lists = Lists(api, owner)
    target = lists.create()
    for content, code in ((b"", "csv_empty"), (b"nombre,ciudad\nAna,CDMX\n", "csv_no_phone_column"),
                          (b"phone\n" + b"5215500000001\n" * 20_001, "csv_too_many_rows")):
        answer = lists.import_csv(target["id"], content)
        assert_problem(answer, 400, code, (code, answer.json))
    wrong_type = lists.import_csv(target["id"], b"phone\n5215500000001\n", as_form=False, content_type="application/json")
    assert wrong_type.status_code == 400
    no_file = api.client.post(f"{lists.base}/contact-lists/{target['id']}/import", data={"other": "x"},
                              headers={"Authorization": f"Bearer {owner['token']}"}, content_type="multipart/form-data")
    assert_problem(no_file, 400, "file_missing")
    huge = lists.import_csv(target["id"], b"phone\n" + b"5215500000001," + b"x" * (5 * 1024 * 1024))
    assert huge.status_code == 413
    assert lists.members(target["id"]) == []
    assert api.get(f"{lists.base}/contacts", token=owner["token"]).json["data"]["items"] == []


def test_remove_by_filter(api, owner):
    lists = Lists(api, owner)
    target = lists.create()
    lists.import_csv(target["id"], b"phone,name\n5215500000001,Ana\n5215500000002,Luis\n34600000001,Pau\n")
    luis = next(c for c in api.get(f"{lists.base}/contacts", token=owner["token"]).json["data"]["items"]
                if c["name"] == "Luis")
    api.patch(f"{lists.base}/contacts/{luis['id']}", {"botExcluded": True}, token=owner["token"])
    assert lists.call("POST", f"/{target['id']}/remove-by-filter", {}).json["code"] == "filter_required"
    assert lists.call("POST", f"/{target['id']}/remove-by-filter", {"optedOut": "sí"}).status_code == 400
    spain = lists.call("POST", f"/{target['id']}/remove-by-filter", {"waIdPrefix": "34"})
    assert spain.status_code == 200 and spain.json["data"] == {"removed": 1}
    bots = lists.call("POST", f"/{target['id']}/remove-by-filter", {"botExcluded": True, "waIdPrefix": "52"})
    assert bots.json["data"] == {"removed": 1}
    assert lists.members(target["id"]) == ["5215500000001"]
    assert len(api.get(f"{lists.base}/contacts", token=owner["token"]).json["data"]["items"]) == 3


def test_other_tenants(api, owner):
    lists = Lists(api, owner)
    target = lists.create()
    mine = lists.contact("5215500000001")
    stranger = api.signup(email="eve@example.com")["tokens"]["accessToken"]
    theirs = api.post("/organizations", {"name": "Eve", "slug": "eve", "billingEmail": "e@eve.test"},
                      token=stranger).json["data"]
    eve = Lists(api, {"token": stranger, "org": theirs})
    assert eve.call("GET", "").json["data"] == []
    assert eve.call("GET", f"/{target['id']}").status_code == 404
    assert eve.call("POST", f"/{target['id']}/members", {"contactIds": [mine["id"]]}).status_code == 404
    assert eve.import_csv(target["id"], b"phone\n5215500000009\n").status_code == 404
    their_list = eve.create()
    refused = eve.call("POST", f"/{their_list['id']}/members", {"contactIds": [mine["id"]]})
    assert_problem(refused, 404, "contact_not_found")
    assert eve.call("POST", f"/{target['id']}/remove-by-filter", {"waIdPrefix": "52"}).status_code == 404
    assert lists.members(target["id"]) == []
