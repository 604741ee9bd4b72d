import pytest

from appliance.core.ids import new_id
from appliance.settings import SETTINGS, load_settings


def test_settings_read_the_environment_and_overrides(tmp_path):
    """Env values are parsed; explicit overrides win."""
    settings = load_settings({"APPLIANCE_PORT": "9000", "APPLIANCE_THREADS": "4"}, threads=8)
    assert settings.port == 9000 and settings.threads == 8


def test_a_bad_setting_stops_with_its_name():
    """A non-number port names the setting in the error."""
    with pytest.raises(SystemExit, match="APPLIANCE_PORT"):
        load_settings({"APPLIANCE_PORT": "eighty"})


def test_every_setting_has_help_and_a_parseable_default():
    """Settings are documented data."""
    load_settings({})
    assert all(s.help and s.name.startswith("APPLIANCE_") for s in SETTINGS)


def test_ids_are_uuid7_and_sort_by_creation():
    """New ids are version-7 UUIDs in creation order."""
    ids = [new_id() for _ in range(50)]
    assert all(i[14] == "7" for i in ids)
    stamps = [i[:13] for i in ids]  # the 48-bit millisecond timestamp leads the id
    assert stamps == sorted(stamps)


def test_the_direct_dump_path_answers_as_marshmallow_does():
    """ApiSchema reads attributes directly; the answer must match marshmallow's generic path."""
    from types import SimpleNamespace

    from marshmallow import Schema, fields

    from appliance.core.schema import ApiSchema, IsoDateTime

    class Inner(ApiSchema):
        inner_name = fields.String()

    class Thing(ApiSchema):
        the_id = fields.String()
        count = fields.Integer(dump_default=7)
        maybe = fields.String(allow_none=True)
        flag = fields.Function(lambda obj: obj.count > 1)
        renamed = fields.String(attribute="other")
        nested_name = fields.String(attribute="inner.inner_name")
        inner = fields.Nested(Inner)
        tags = fields.List(fields.String())
        created_at = IsoDateTime()

    from datetime import datetime, timezone
    thing = SimpleNamespace(the_id="t1", count=3, maybe=None, other="o", inner=SimpleNamespace(inner_name="i"),
                            tags=["a"], created_at=datetime(2026, 11, 21, tzinfo=timezone.utc))
    fast = Thing().dump(thing)
    generic = Schema._serialize(Thing(), thing)  # marshmallow's own path, for comparison
    assert fast == generic
    assert fast["flag"] is True and fast["nestedName"] == "i" and fast["inner"] == {"innerName": "i"}
    sparse = SimpleNamespace(the_id="t2", flag=None)
    assert Thing(only=("the_id", "count")).dump(sparse) == {"theId": "t2", "count": 7}
    assert Thing(many=True).dump([thing, thing]) == [generic, generic]
    assert Thing(only=("the_id", "count")).dump({"the_id": "d"}) == {"theId": "d", "count": 7}


def test_the_envelope_dump_answers_as_marshmallow_does():
    """The `{data, timestamp}` envelope skips marshmallow's field machinery; same answer, lists
    and a null `data` included."""
    from datetime import datetime, timezone
    from types import SimpleNamespace

    from marshmallow import Schema, fields

    from appliance.core.schema import ApiSchema
    from appliance.http.api import envelope_for

    class Item(ApiSchema):
        item_id = fields.String()

    now = datetime(2026, 11, 21, 12, 0, 0, 123000, tzinfo=timezone.utc)
    for schema, data in ((Item, SimpleNamespace(item_id="a")), (Item(many=True), [SimpleNamespace(item_id="b")]),
                         (Item, None)):
        envelope = envelope_for(schema)()
        body = {"data": data, "timestamp": now}
        assert envelope.dump(body) == Schema._serialize(envelope, body)
    assert envelope_for(Item)().dump({"data": SimpleNamespace(item_id="a"), "timestamp": now}) == {
        "data": {"itemId": "a"}, "timestamp": "2026-11-21T12:00:00.123Z"}


def test_generated_row_makers_convert_like_the_columns_say(tmp_path):
    """Hot-path rows: datetimes come back aware (UTC), JSON decoded, booleans as bool, NULL as None;
    a tuple of the wrong width is refused rather than silently misaligned."""
    from datetime import datetime, timezone

    from appliance.api_keys.models import ApiKey
    from appliance.core.rows import _as_row

    table = ApiKey.__table__
    values = []
    for column in table.columns:
        kind = type(column.type).__name__
        values.append({"UTCDateTime": "2026-11-21 10:00:00.000000", "JSON": '["x"]'}.get(kind, None)
                      if column.name not in ("id", "prefix") else column.name)
    row = _as_row(table, values)
    assert row.id == "id" and row.prefix == "prefix"
    assert row.created_at == datetime(2026, 11, 21, 10, tzinfo=timezone.utc)
    assert row.scopes == ["x"] and row.revoked_at == datetime(2026, 11, 21, 10, tzinfo=timezone.utc)
    assert row.name is None
    with pytest.raises(ValueError, match="columns"):
        _as_row(table, values[:-1])


def test_the_served_address_follows_the_address_and_port_served():
    """Where this machine reaches the server (the public address's default,
    installation/public_address.py): its port (18080, not the default 8080), loopback when it
    listens on every address, its own address when it names one. APPLIANCE_BASE_URL is kept as set,
    without a final slash."""
    assert load_settings({"APPLIANCE_PORT": "18080"}).served_url == "http://127.0.0.1:18080"
    assert load_settings({"APPLIANCE_PORT": "18080", "APPLIANCE_HOST": "0.0.0.0"}).served_url == "http://127.0.0.1:18080"
    assert load_settings({"APPLIANCE_HOST": "192.168.1.20"}).served_url == "http://192.168.1.20:8080"
    assert load_settings({"APPLIANCE_HOST": "::1", "APPLIANCE_PORT": "9000"}).served_url == "http://[::1]:9000"
    assert load_settings({"APPLIANCE_HOST": "::", "APPLIANCE_PORT": "9000"}).served_url == "http://[::1]:9000"
    assert load_settings({"APPLIANCE_PORT": "18080"}).replace(port=40123).served_url == "http://127.0.0.1:40123"
    assert load_settings({"APPLIANCE_PORT": "18080"}).base_url == ""
    assert load_settings({"APPLIANCE_PORT": "18080",
                          "APPLIANCE_BASE_URL": "https://sol.example/"}).base_url == "https://sol.example"
