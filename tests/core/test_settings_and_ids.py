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
