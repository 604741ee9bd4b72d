from marshmallow import fields, validate

from appliance.contacts.schemas import ContactFilterFields
from appliance.core.schema import ApiSchema, IsoDateTime, Text, UuidString


class ContactListSchema(ApiSchema):
    id = fields.String()
    name = fields.String()
    description = fields.String(allow_none=True)
    member_count = fields.Integer()
    created_at = IsoDateTime()
    updated_at = IsoDateTime()


class ContactListCreateSchema(ApiSchema):
    name = Text(required=True, min_length=1, max_length=100)
    description = Text(max_length=500, allow_none=True, multiline=True)


class ContactListUpdateSchema(ApiSchema):
    name = Text(min_length=1, max_length=100)
    description = Text(max_length=500, allow_none=True, multiline=True)


class MemberIdsSchema(ApiSchema):
    contact_ids = fields.List(UuidString(), required=True, validate=validate.Length(min=1, max=1000))


class MembersAddedSchema(ApiSchema):
    added = fields.Integer()
    already_members = fields.Integer()


class MembersRemovedSchema(ApiSchema):
    removed = fields.Integer()


class RemoveByFilterSchema(ContactFilterFields):
    """Members matching every given filter leave the list (their contacts stay)."""


class ImportArgsSchema(ApiSchema):
    update_existing = fields.Boolean(load_default=False, metadata={
        "description": "Known numbers take the file's name and columns (default: they keep theirs)"})


class RejectedRowSchema(ApiSchema):
    line = fields.Integer()
    reason = fields.String()


class ImportSummarySchema(ApiSchema):
    rows = fields.Integer(metadata={"description": "Data rows read (header and blank lines aside)"})
    created = fields.Integer(metadata={"description": "New contacts"})
    updated = fields.Integer(metadata={"description": "Known contacts changed (updateExisting)"})
    added = fields.Integer(metadata={"description": "Contacts that joined the list"})
    already_members = fields.Integer()
    rejected = fields.Integer(metadata={"description": "Rows skipped: no readable number, or repeated"})
    rejections = fields.List(fields.Nested(RejectedRowSchema), metadata={"description": "The first 100, by line"})
