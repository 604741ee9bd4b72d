"""Money: exact decimals in the currency's unit (babel's CLDR digits: COP and USD 2, CLP 0), kept
as whole minor units in the database (no float ever holds an amount), written as decimal strings
with their currency on the wire ("125000.00", "COP")."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from babel.numbers import get_currency_precision

from appliance.core.errors import Invalid


def places(currency: str) -> int:
    return get_currency_precision(currency)


def rounded(amount: Decimal, currency: str) -> Decimal:
    """To the currency's unit, halves away from zero (a proration of 0.5 cents is a cent)."""
    return amount.quantize(Decimal(1).scaleb(-places(currency)), rounding=ROUND_HALF_UP)


def to_minor(amount: Decimal, currency: str) -> int:
    return int(rounded(amount, currency).scaleb(places(currency)))


def from_minor(units: int, currency: str) -> Decimal:
    return rounded(Decimal(units).scaleb(-places(currency)), currency)


def text(units: int, currency: str) -> str:
    """The wire's form: "125000.00"."""
    return f"{from_minor(units, currency):f}"


def parse_amount(value, currency: str, *, field: str = "amount") -> int:
    """A positive amount the client sent (a decimal string or a number) in minor units; 400 naming
    the field when it is not a number, not above zero or finer than the currency's unit."""
    try:
        amount = Decimal(str(value).strip())
    except (InvalidOperation, ValueError):
        amount = None
    if amount is None or not amount.is_finite() or amount <= 0:
        raise Invalid("The amount must be a number above zero.", errors={field: ["A number above zero."]})
    if amount != rounded(amount, currency):
        raise Invalid(f"{currency} amounts have at most {places(currency)} decimals.",
                      errors={field: [f"At most {places(currency)} decimals."]})
    if amount >= Decimal("1e13"):
        raise Invalid("The amount is too large.", errors={field: ["Too large."]})
    return to_minor(amount, currency)
