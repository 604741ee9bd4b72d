from marshmallow import fields, validate

from appliance.core.schema import ApiSchema, Text
from appliance.mail.servers import SECURITY


class MailServerSchema(ApiSchema):
    """The console's mail server form (no API route: the installation's, not an organization's)."""

    host = fields.String(required=True, validate=validate.Regexp(
        r"^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,62}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,62}[A-Za-z0-9])?)*$",
        error="A host name such as smtp.example.com, or an IP address."))
    port = fields.Integer(required=True, validate=validate.Range(min=1, max=65535))
    security = fields.String(required=True, validate=validate.OneOf(SECURITY))
    username = Text(max_length=254, allow_none=True)
    password = fields.String(allow_none=True, validate=validate.Length(max=500))
    sender = fields.Email(required=True, validate=validate.Length(max=254))
