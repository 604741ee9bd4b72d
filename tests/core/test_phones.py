"""Phone numbers as people write them (core/phones.py): the country's international format; a
Mexican mobile as WhatsApp names it (with the "1" Mexico dropped in 2019) as people know it; what
the metadata does not know as "+" and its digits."""

import pytest

from appliance.core.phones import for_people


@pytest.mark.parametrize("wa_id, shown", [
    ("573001110001", "+57 300 1110001"),
    ("5215512345678", "+52 55 1234 5678"),  # WhatsApp's wa_id of a Mexico City mobile
    ("525512345678", "+52 55 1234 5678"),
    ("15550102000", "+1 555-010-2000"),
    ("999", "+999"),
    ("", ""),
])
def test_numbers_are_written_as_their_country_does(wa_id, shown):
    assert for_people(wa_id) == shown
