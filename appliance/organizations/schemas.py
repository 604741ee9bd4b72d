import re

from marshmallow import ValidationError, fields, validate, validates_schema

from appliance.core import regions
from appliance.core.schema import ApiSchema, EmailAddress, IsoDateTime, Text, UuidString
from appliance.organizations.slugs import RESERVED
from appliance.users.schemas import TimeZoneName

_HHMM = re.compile(r"^(?:[01]\d|2[0-3]):[0-5]\d$")


class IsoCode(fields.String):
    """A code from a list that exists (countries, currencies), upper-cased; the document lists them."""

    def __init__(self, codes: frozenset[str], error: str, **kwargs):
        super().__init__(validate=validate.OneOf(codes, error=error),
                         metadata={"enum": sorted(codes), **kwargs.pop("metadata", {})}, **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        return super()._deserialize(value, attr, data, **kwargs).strip().upper()


def _country(**kwargs) -> IsoCode:
    return IsoCode(regions.COUNTRIES, "Unknown country; use an ISO 3166-1 alpha-2 code such as MX.", metadata={
        "description": "ISO 3166-1 alpha-2 code (MX, CO, ES...)"}, **kwargs)


def _currency(**kwargs) -> IsoCode:
    return IsoCode(regions.CURRENCIES, "Unknown currency; use an ISO 4217 code in use, such as MXN.", metadata={
        "description": "ISO 4217 code of a currency in use (MXN, COP, EUR...)"}, **kwargs)


class IntervalSchema(ApiSchema):
    open = fields.String(required=True, validate=validate.Regexp(_HHMM, error="Use HH:MM."))
    close = fields.String(required=True, validate=validate.Regexp(_HHMM, error="Use HH:MM."),
                          metadata={"description": "HH:MM, after open (an interval does not cross midnight)"})

    @validates_schema
    def _ordered(self, data, **kwargs):
        if data["open"] >= data["close"]:
            raise ValidationError("open must be before close.", "close")


class BusinessHoursSchema(ApiSchema):
    """Opening intervals per weekday, in the organization's time zone; a missing day is closed."""

    mon = fields.List(fields.Nested(IntervalSchema), validate=validate.Length(max=6))
    tue = fields.List(fields.Nested(IntervalSchema), validate=validate.Length(max=6))
    wed = fields.List(fields.Nested(IntervalSchema), validate=validate.Length(max=6))
    thu = fields.List(fields.Nested(IntervalSchema), validate=validate.Length(max=6))
    fri = fields.List(fields.Nested(IntervalSchema), validate=validate.Length(max=6))
    sat = fields.List(fields.Nested(IntervalSchema), validate=validate.Length(max=6))
    sun = fields.List(fields.Nested(IntervalSchema), validate=validate.Length(max=6))


class OrganizationSchema(ApiSchema):
    id = fields.String()
    name = fields.String()
    slug = fields.String()
    billing_email = fields.String()
    country = fields.String(allow_none=True)
    currency = fields.String(allow_none=True)
    timezone = fields.String()
    plan_slug = fields.String()
    billing_interval = fields.String()
    billing_parent_id = fields.String(allow_none=True)
    # Validated on the way in (BusinessHoursSchema); written out as stored.
    business_hours_schedule = fields.Dict(metadata={"description": "Opening intervals per weekday (mon..sun)"})
    opt_out_enabled = fields.Boolean()
    opt_out_keywords = fields.List(fields.String())
    suspended = fields.Function(lambda org: org.suspended_at is not None, dump_only=True)
    created_at = IsoDateTime()
    updated_at = IsoDateTime()


_KEYWORDS = fields.List(Text(min_length=1, max_length=40), validate=validate.Length(max=50))


class OrganizationCreateSchema(ApiSchema):
    name = Text(required=True, min_length=1, max_length=100)
    slug = fields.String(required=True, validate=validate.Length(max=100), metadata={
        "description": "3 to 48 lower-case letters, digits and single dashes; a few words are reserved",
        "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$", "minLength": 3, "maxLength": 48, "not": {"enum": sorted(RESERVED)}})
    billing_email = EmailAddress(required=True)
    country = _country()
    currency = _currency()
    timezone = TimeZoneName(metadata={"description": "IANA zone; default: the country's main zone (UTC without a country)"})
    plan_slug = fields.String(validate=validate.Regexp(r"^[a-z0-9-]{1,40}$"), metadata={
        "description": "One of the installation's plans (400 unknown_plan otherwise); default: its default plan"})
    billing_interval = fields.String(validate=validate.OneOf(("MONTHLY", "YEARLY")))
    billing_parent_id = UuidString()


class OrganizationUpdateSchema(ApiSchema):
    name = Text(min_length=1, max_length=100)
    billing_email = EmailAddress()
    country = _country()
    currency = _currency()
    timezone = TimeZoneName()
    business_hours_schedule = fields.Nested(BusinessHoursSchema)
    opt_out_enabled = fields.Boolean()
    opt_out_keywords = _KEYWORDS


class QuotaSchema(ApiSchema):
    limit = fields.Integer()
    used = fields.Integer()
    remaining = fields.Integer()


class SlugQuerySchema(ApiSchema):
    slug = fields.String(required=True, validate=validate.Length(min=1, max=100))


class NameQuerySchema(ApiSchema):
    name = Text(required=True, min_length=1, max_length=100)


class SlugAvailabilitySchema(ApiSchema):
    slug = fields.String()
    available = fields.Boolean()


class SlugSuggestionSchema(ApiSchema):
    slug = fields.String()


class OrganizationRefSchema(ApiSchema):
    id = fields.String()
    name = fields.String()
    slug = fields.String()
    plan_slug = fields.String()


class ChildOrganizationSchema(OrganizationRefSchema):
    ai_limits = fields.Function(lambda org: {"dailyUsd": org.ai_daily_usd_cap, "monthlyUsd": org.ai_monthly_usd_cap},
                                metadata={"description": "{dailyUsd, monthlyUsd}; null = no cap"})


class BillingGroupSchema(ApiSchema):
    organization = fields.Nested(ChildOrganizationSchema)
    parent = fields.Nested(OrganizationRefSchema, allow_none=True)
    children = fields.List(fields.Nested(ChildOrganizationSchema))


class BillingLinkSchema(ApiSchema):
    parent_org_id = UuidString(required=True)


_USD = {"required": True, "allow_none": True, "validate": validate.Range(min=0, max=1_000_000)}


class AiLimitsSchema(ApiSchema):
    daily_usd = fields.Float(**_USD)
    monthly_usd = fields.Float(**_USD)
