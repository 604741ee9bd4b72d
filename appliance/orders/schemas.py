from marshmallow import fields, validate

from appliance.core.schema import ApiSchema, IsoDateTime, PageArgsSchema, Text
from appliance.orders.models import STATUS_CODES


class OrderItemSchema(ApiSchema):
    product_retailer_id = fields.String()
    quantity = fields.Raw(metadata={"description": "As a decimal string"})
    item_price = fields.Raw(metadata={"description": "As a decimal string"})
    currency = fields.String(allow_none=True)


class OrderStatusSchema(ApiSchema):
    code = fields.String(required=True, validate=validate.OneOf(STATUS_CODES))
    note = Text(max_length=500, multiline=True, allow_none=True)
    notify_customer = fields.Boolean(load_default=False, metadata={
        "description": "Tell the customer (in the organization's language) when the 24-hour window is open"})


class OrderSchema(ApiSchema):
    id = fields.String()
    message_id = fields.String()
    conversation_id = fields.String()
    contact_id = fields.String()
    phone_number_pk = fields.String(data_key="phoneNumberId")
    catalog_id = fields.String(allow_none=True)
    items = fields.List(fields.Dict())
    note = fields.String(allow_none=True, metadata={"description": "The customer's text with the cart"})
    total = fields.String(metadata={"description": "Sum of quantity x price, a decimal string"})
    currency = fields.String(allow_none=True)
    status = fields.Function(lambda order: {"code": order.status_code, "note": order.status_note,
                                            "customerNotified": order.customer_notified,
                                            "notNotifiedReason": order.not_notified_reason})
    status_changed_by_user_id = fields.String(allow_none=True)
    created_at = IsoDateTime()
    updated_at = IsoDateTime()


class OrderPageSchema(ApiSchema):
    items = fields.List(fields.Nested(OrderSchema))
    next_cursor = fields.String(allow_none=True)


class OrderArgsSchema(PageArgsSchema):
    status = fields.String(load_default=None, validate=validate.OneOf(STATUS_CODES))


class OrderPatchSchema(ApiSchema):
    status = fields.Nested(OrderStatusSchema, required=True)
