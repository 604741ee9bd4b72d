from marshmallow import fields, validate

from appliance.core.schema import ApiSchema, IsoDateTime, Text
from appliance.push.models import TRIGGERS
from appliance.push.service import PLATFORMS

_ENDPOINT = {"min_length": 1, "max_length": 2000}


class PushNativeSchema(ApiSchema):
    ios = fields.Boolean()
    android = fields.Boolean()


class PushConfigSchema(ApiSchema):
    vapid_public_key = fields.String(allow_none=True, metadata={"description": "applicationServerKey for pushManager.subscribe"})
    web_push = fields.Boolean()
    native = fields.Nested(PushNativeSchema, metadata={"description": "Native push can be sent, by platform (iOS: APNs or FCM configured; Android: FCM); tokens are kept either way"})


class PushSubscribeSchema(ApiSchema):
    endpoint = Text(required=True, **_ENDPOINT)
    p256dh = Text(required=True, min_length=1, max_length=200)
    auth = Text(required=True, min_length=1, max_length=100)


class PushUnsubscribeSchema(ApiSchema):
    endpoint = Text(required=True, **_ENDPOINT)


class PushRotateSchema(PushSubscribeSchema):
    old_endpoint = Text(required=True, **_ENDPOINT)


class PushSubscriptionSchema(ApiSchema):
    id = fields.String()
    endpoint = fields.String()
    user_agent = fields.String(allow_none=True)
    created_at = IsoDateTime()
    last_success_at = IsoDateTime(allow_none=True)
    last_error = fields.String(allow_none=True)
    failures = fields.Integer()


class PushDeviceCreateSchema(ApiSchema):
    token = Text(required=True, min_length=1, max_length=4096)
    platform = fields.String(required=True, validate=validate.OneOf(PLATFORMS))
    app_version = Text(load_default=None, max_length=40)


class PushDeviceDeleteSchema(ApiSchema):
    token = Text(required=True, min_length=1, max_length=4096)


class PushDeviceSchema(ApiSchema):
    id = fields.String()
    platform = fields.String()
    app_version = fields.String(allow_none=True)
    created_at = IsoDateTime()
    updated_at = IsoDateTime()
    last_success_at = IsoDateTime(allow_none=True)
    last_error = fields.String(allow_none=True)


class PushMineItemSchema(ApiSchema):
    """One of my browsers or devices."""
    id = fields.String()
    kind = fields.String(metadata={"description": "WEB (a browser), IOS or ANDROID (the mobile app)"})
    endpoint = fields.String(allow_none=True, metadata={"description": "A browser's push endpoint (null for a device)"})
    token = fields.String(allow_none=True, metadata={"description": "A device's token, shortened (null for a browser)"})
    user_agent = fields.String(allow_none=True, metadata={"description": "A browser's user agent"})
    app_version = fields.String(allow_none=True, metadata={"description": "A device's app version"})
    created_at = IsoDateTime()
    last_success_at = IsoDateTime(allow_none=True)
    last_error = fields.String(allow_none=True)
    failures = fields.Integer(metadata={"description": "Failed pushes in a row"})


class PushDiagnoseArgsSchema(ApiSchema):
    endpoint = Text(required=True, **_ENDPOINT)


class PushDiagnoseSchema(ApiSchema):
    found = fields.Boolean()
    last_success_at = IsoDateTime(allow_none=True)
    last_error = fields.String(allow_none=True)
    failures = fields.Integer()


class PushTestSentSchema(ApiSchema):
    subscriptions = fields.Integer()
    devices = fields.Integer()


class PushPreferencesSchema(ApiSchema):
    triggers = fields.List(fields.String(validate=validate.OneOf(TRIGGERS)), required=True,
                           validate=validate.Length(max=len(TRIGGERS)),
                           metadata={"description": "What I am pushed: " + ", ".join(TRIGGERS)})
