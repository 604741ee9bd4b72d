from marshmallow import fields, validate

from appliance.core import clock
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
    payment = fields.Function(lambda order: {
        "status": order.payment_status, "paidAt": clock.iso(order.paid_at), "paidVia": order.paid_via,
        "reference": order.payment_reference, "paidByUserId": order.paid_by_user_id, "linkUrl": order.payment_link_url,
        "receiptMessageId": order.receipt_message_id}, metadata={
        "description": "status UNPAID | PAID; paidVia LINK | TRANSFER | MANUAL; linkUrl where the customer pays; "
                       "receiptMessageId the picture the customer sent as a transfer's proof"})
    delivery = fields.Function(lambda order: {
        "status": order.delivery_status, "reason": order.delivery_note, "deliveredAt": clock.iso(order.delivered_at)},
        metadata={"description": "Its license keys: status NONE | WAITING | DELIVERED; reason no_keys | "
                                 "window_closed while it waits"})
    created_at = IsoDateTime()
    updated_at = IsoDateTime()


class OrderPageSchema(ApiSchema):
    items = fields.List(fields.Nested(OrderSchema))
    next_cursor = fields.String(allow_none=True)


class OrderArgsSchema(PageArgsSchema):
    status = fields.String(load_default=None, validate=validate.OneOf(STATUS_CODES))


class OrderPatchSchema(ApiSchema):
    status = fields.Nested(OrderStatusSchema, required=True)


class PaymentLinkArgsSchema(ApiSchema):
    send_to_customer = fields.Boolean(load_default=False, metadata={
        "description": "Also send the link to the customer in the conversation (inside the 24-hour window)"})


class PaidSchema(ApiSchema):
    reference = Text(load_default=None, max_length=100, metadata={
        "description": "What identifies the payment (a transfer's number, a receipt's)"})


class ReplaceKeySchema(ApiSchema):
    reason = Text(required=True, min_length=1, max_length=300)


class OrderKeySchema(ApiSchema):
    id = fields.String()
    product_id = fields.String()
    key = fields.String(metadata={"description": "Masked: its last four characters"})
    assigned_at = IsoDateTime(allow_none=True)
    replaced_at = IsoDateTime(allow_none=True)
    replaced_reason = fields.String(allow_none=True)


class OrderKeysSchema(ApiSchema):
    items = fields.List(fields.Nested(OrderKeySchema))


class TemplateChoiceSchema(ApiSchema):
    name = Text(required=True, min_length=1, max_length=512)
    language = Text(required=True, min_length=2, max_length=15)


class SalesSettingsPutSchema(ApiSchema):
    delivery_template = fields.Nested(TemplateChoiceSchema, required=True, allow_none=True, metadata={
        "description": "The approved template that carries license keys outside the 24-hour window (its body: the "
                       "keys, or the product's name and the keys); null: such deliveries wait for the customer"})


class SalesSettingsSchema(ApiSchema):
    delivery_template = fields.Function(lambda s: {"name": s.name, "language": s.language} if s.name else None)
    updated_at = IsoDateTime(allow_none=True)
