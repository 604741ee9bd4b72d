import json

from marshmallow import ValidationError, fields, validate, validates_schema

from appliance.contacts import opt_ins
from appliance.contacts.service import normalize_wa_id
from appliance.core.schema import ApiSchema, IsoDateTime, PageArgsSchema, Text, UuidString

MAX_ATTRIBUTES = 50
MAX_OPT_IN_PAYLOAD = 4000


class WaId(fields.String):
    """A WhatsApp number, accepted as people write it ("+52 1 55 1234 5678") and kept as the
    network writes it (digits with country code)."""

    def __init__(self, **kwargs):
        # 8 to 15 digits after + or 00, with the separators people write between them; a country
        # code never starts with 0
        metadata = {"pattern": r"^(?:\+|00)?[ ().-]*[1-9](?:[ ().-]*[0-9]){7,14}[ ().-]*$", "example": "+57 300 123 4567",
                    **kwargs.pop("metadata", {})}
        super().__init__(metadata=metadata, **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        text = super()._deserialize(value, attr, data, **kwargs)
        normalized = normalize_wa_id(text)
        if normalized is None:
            raise ValidationError("A phone number with country code: 8 to 15 digits.")
        return normalized


def _check_attributes(value: dict) -> None:
    if len(value) > MAX_ATTRIBUTES:
        raise ValidationError(f"At most {MAX_ATTRIBUTES} attributes.")
    for key, item in value.items():
        if not 0 < len(key) <= 64:
            raise ValidationError("Attribute names have 1 to 64 characters.")
        if not (item is None or isinstance(item, (str, int, float, bool))) or (isinstance(item, str) and len(item) > 1000):
            raise ValidationError(f"'{key}': a string (at most 1,000 characters), number, boolean or null.")


_ATTRIBUTE_VALUE = fields.Raw(allow_none=True, metadata={"anyOf": [{"type": "string", "maxLength": 1000},
                                                                   {"type": "number"}, {"type": "boolean"}]})
Attributes = fields.Dict(keys=fields.String(validate=validate.Length(min=1, max=64)), values=_ATTRIBUTE_VALUE,
                         validate=_check_attributes, metadata={
                             "description": "The business's own fields: flat name -> string, number or boolean",
                             "maxProperties": MAX_ATTRIBUTES})


class ContactSchema(ApiSchema):
    id = fields.String()
    wa_id = fields.String(allow_none=True, metadata={"description": "WhatsApp number, digits with country code"})
    user_id = fields.String(allow_none=True, metadata={"description": "The network's business-scoped user id"})
    name = fields.String(allow_none=True, metadata={"description": "As the business wrote it"})
    profile_name = fields.String(allow_none=True, metadata={"description": "As the customer's WhatsApp profile says"})
    display_name = fields.Function(lambda c: c.name or c.profile_name or (f"+{c.wa_id}" if c.wa_id else c.user_id),
                                   dump_only=True)
    bot_excluded = fields.Boolean(metadata={"description": "Automation (rules, AI agents) never answers this contact"})
    opted_out = fields.Function(lambda c: c.opted_out_at is not None, dump_only=True)
    opted_out_at = IsoDateTime(allow_none=True)
    attributes = fields.Dict()
    created_at = IsoDateTime()
    updated_at = IsoDateTime()


class ContactPageSchema(ApiSchema):
    items = fields.List(fields.Nested(ContactSchema))
    next_cursor = fields.String(allow_none=True)


class ContactFilterFields(ApiSchema):
    search = fields.String(load_default=None, validate=validate.Length(min=1, max=100),
                           metadata={"description": "Part of the name, profile name or number"})
    opted_out = fields.Boolean(load_default=None)
    bot_excluded = fields.Boolean(load_default=None)
    wa_id_prefix = fields.String(load_default=None, validate=validate.Regexp(r"^[0-9]{1,15}$"),
                                 metadata={"description": "Numbers starting with these digits (a country code)"})


class ContactArgsSchema(PageArgsSchema, ContactFilterFields):
    list_id = UuidString(load_default=None, metadata={"description": "Only members of this contact list"})


class ContactCreateSchema(ApiSchema):
    wa_id = WaId(required=True)
    user_id = fields.String(validate=validate.Regexp(r"^[A-Z]{2}\.[0-9A-Za-z]{1,136}$",
                                                     error="A business-scoped user id such as US.13491208655302741918"))
    name = Text(max_length=200, allow_none=True)
    bot_excluded = fields.Boolean(load_default=False)
    attributes = Attributes


class ContactUpdateSchema(ApiSchema):
    min_fields = 1  # documented as minProperties; the check below says which
    name = Text(max_length=200, allow_none=True)
    bot_excluded = fields.Boolean()
    attributes = Attributes

    @validates_schema
    def not_empty(self, data, **kwargs):
        if not data:
            raise ValidationError("Give at least one of name, botExcluded, attributes.", "_schema")


def _check_payload(value: dict) -> None:
    if len(json.dumps(value)) > MAX_OPT_IN_PAYLOAD:
        raise ValidationError(f"At most {MAX_OPT_IN_PAYLOAD:,} characters of JSON.")


class OptInSchema(ApiSchema):
    id = fields.String()
    contact_id = fields.String()
    type = fields.String(metadata={"description": "IN (agreed to receive messages) or OUT (asked to stop)"})
    source = fields.String(allow_none=True, metadata={"description": "Where it came from: keyword (the customer "
                                                                     "wrote an opt-out word), api, console, form..."})
    channel = fields.String(allow_none=True)
    payload = fields.Dict()
    created_by = fields.String(metadata={"description": "Who made it: user:<userId> (a person), key:<apiKeyId>, "
                                                        "oauth:<authorizationId> (an application for a person) or "
                                                        "keyword (the customer wrote an opt-out keyword)"})
    created_by_user_id = fields.String(allow_none=True)
    created_at = IsoDateTime()


class OptInCreateSchema(ApiSchema):
    type = fields.String(required=True, validate=validate.OneOf(opt_ins.TYPES))
    source = Text(max_length=100, allow_none=True)
    channel = Text(max_length=50, allow_none=True)
    payload = fields.Dict(load_default=None, allow_none=True, validate=_check_payload,
                          metadata={"description": "Anything the business keeps with it (the form, the wording agreed to)"})
