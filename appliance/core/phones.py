"""Phone numbers written for people: "+57 300 1234567" rather than "573001234567".

The grouping of every country's numbers is data that changes (new ranges, new carriers), so it
comes from `phonenumberslite` (Google's libphonenumber metadata, without its geocoding and carrier
tables) rather than rules of ours."""

from __future__ import annotations

import phonenumbers


def for_people(wa_id: str | None) -> str:
    """`wa_id` (digits with country code) in the international format of its country; a number
    the metadata does not know (a test range, an old format) as "+" and its digits."""
    if not wa_id:
        return ""
    digits = "".join(c for c in str(wa_id) if c.isdigit())
    if not digits:
        return str(wa_id)
    parsed = _parsed(digits)
    if parsed is None and digits.startswith(_MEXICO_MOBILE) and len(digits) == 13:
        # WhatsApp still names Mexican mobiles with the "1" Mexico dropped in 2019 (521 55...):
        # people know the number without it.
        parsed = _parsed("52" + digits[3:])
    if parsed is None:
        return "+" + digits
    return phonenumbers.format_number(parsed, phonenumbers.PhoneNumberFormat.INTERNATIONAL)


_MEXICO_MOBILE = "521"


def _parsed(digits: str):
    try:
        parsed = phonenumbers.parse("+" + digits)
    except phonenumbers.NumberParseException:
        return None
    return parsed if phonenumbers.is_possible_number(parsed) else None
