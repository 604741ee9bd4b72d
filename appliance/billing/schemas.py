from marshmallow import fields, validate

from appliance.billing import addons, hosted, payment_reports
from appliance.billing.money import text as _text
from appliance.core import clock
from appliance.core.schema import ApiSchema, EmailAddress, IsoDateTime, PageArgsSchema, Text, UuidString
from appliance.organizations import plans

_MONEY = {"description": "A decimal string in the currency's unit, e.g. \"125000.00\""}


class AddonChangeSchema(ApiSchema):
    addon_type = fields.String(required=True, validate=validate.OneOf(plans.ADDON_TYPES))
    quantity = fields.Integer(required=True, validate=validate.Range(min=0, max=addons.MAX_QUANTITY), metadata={
        "description": "The units wanted in all (the absolute target); 0 removes all"})


class AddonPatchSchema(AddonChangeSchema):
    proration_at = fields.AwareDateTime(load_default=None, metadata={
        "description": "The preview's prorationAt: the change is charged exactly what that preview showed"})


class CatalogLineSchema(ApiSchema):
    addon_type = fields.String()
    name = fields.Dict(metadata={"description": "Per language"})
    unit_price = fields.String(metadata=_MONEY)
    currency = fields.String()
    interval = fields.String()


class ContractedSchema(ApiSchema):
    addon_type = fields.String()
    quantity = fields.Integer(metadata={"description": "Units in effect now"})
    next_quantity = fields.Integer(allow_none=True, metadata={"description": "A decrease waiting for the period's end"})
    next_from = IsoDateTime(allow_none=True)


class AddonsSchema(ApiSchema):
    catalog = fields.List(fields.Nested(CatalogLineSchema))
    contracted = fields.List(fields.Nested(ContractedSchema))
    included = fields.Dict(metadata={"description": "Units the plan includes, per add-on type"})
    currency = fields.String()
    interval = fields.String()
    period_end = IsoDateTime()


class PreviewSchema(ApiSchema):
    addon_type = fields.String()
    current_quantity = fields.Integer()
    quantity = fields.Integer()
    delta = fields.Integer()
    unit_price = fields.String(metadata=_MONEY)
    proration_amount = fields.String(metadata=_MONEY)
    currency = fields.String()
    interval = fields.String()
    period_end = IsoDateTime()
    wallet_before = fields.String(metadata=_MONEY)
    wallet_after = fields.String(metadata=_MONEY)
    sufficient = fields.Boolean()
    proration_at = IsoDateTime()


class BillingIntervalSchema(ApiSchema):
    interval = fields.String(required=True, validate=validate.OneOf(plans.INTERVALS))


class BillingIntervalByBodySchema(BillingIntervalSchema):
    organization_id = UuidString(required=True)


class IntervalChangeSchema(ApiSchema):
    organization_id = fields.String()
    interval = fields.String(metadata={"description": "In effect now"})
    next_interval = fields.String(allow_none=True, metadata={"description": "From effectiveFrom on"})
    effective_from = IsoDateTime(allow_none=True)


class WalletEntrySchema(ApiSchema):
    id = fields.Integer()
    amount = fields.Function(lambda e: _text(e.amount_minor, e.currency), metadata=_MONEY)
    currency = fields.String()
    source = fields.String()
    reference = fields.String()
    description = fields.String()
    for_organization_id = fields.String(allow_none=True)
    created_at = IsoDateTime()


class WalletSchema(ApiSchema):
    wallet_organization_id = fields.String(metadata={"description": "Whose wallet: the billing group's parent pays"})
    balance = fields.String(metadata=_MONEY)
    currency = fields.String()
    entries = fields.List(fields.Nested(WalletEntrySchema), metadata={"description": "The newest 20"})


class PaymentReportCreateSchema(ApiSchema):
    amount = fields.Raw(required=True, metadata={"description": "A decimal string (or number) above zero"})
    currency = fields.String(load_default=None, validate=validate.Length(equal=3))
    bank = Text(required=True, min_length=1, max_length=80)
    reference = Text(required=True, min_length=1, max_length=80)
    paid_at = fields.AwareDateTime(required=True)
    receipt_media_id = UuidString(load_default=None)


class PaymentReportForOrganizationSchema(PaymentReportCreateSchema):
    organization_id = UuidString(required=True)


class PaymentReportSchema(ApiSchema):
    id = fields.String()
    organization_id = fields.String()
    amount = fields.Function(lambda r: _text(r.amount_minor, r.currency), metadata=_MONEY)
    currency = fields.String()
    bank = fields.String()
    reference = fields.String()
    paid_at = IsoDateTime()
    receipt_media_id = fields.String(allow_none=True)
    has_receipt = fields.Function(lambda r: bool(r.receipt_file_type or r.receipt_media_id), metadata={
        "description": "Whether a receipt came with it (administrators: GET /installation/payment-reports/{id}/receipt)"})
    status = fields.String(metadata={"description": " | ".join(payment_reports.STATUSES)})
    rejection_reason = fields.String(allow_none=True)
    reported_by = fields.String()
    reviewed_at = IsoDateTime(allow_none=True)
    created_at = IsoDateTime()


class PaymentReportPageSchema(ApiSchema):
    items = fields.List(fields.Nested(PaymentReportSchema))
    next_cursor = fields.String(allow_none=True)


class ReviewArgsSchema(PageArgsSchema):
    status = fields.String(load_default=payment_reports.PENDING, validate=validate.OneOf(payment_reports.STATUSES))


class RejectSchema(ApiSchema):
    reason = Text(required=True, min_length=1, max_length=300)



class InvoiceSchema(ApiSchema):
    id = fields.Function(lambda v: v.invoice.id)
    number = fields.Function(lambda v: v.invoice.number)
    status = fields.Function(lambda v: v.invoice.status, metadata={"description": "OPEN | PAID | VOID"})
    period_start = fields.Function(lambda v: _iso(v.invoice.period_start))
    period_end = fields.Function(lambda v: _iso(v.invoice.period_end))
    lines = fields.Function(lambda v: [{"kind": line.kind, "description": line.description, "quantity": line.quantity,
                                        "unitAmount": _text(line.unit_minor, v.invoice.currency),
                                        "amount": _text(line.amount_minor, v.invoice.currency)} for line in v.lines],
                            metadata={"description": "{kind, description, quantity, unitAmount, amount}"})
    total = fields.Function(lambda v: _text(v.invoice.total_minor, v.invoice.currency), metadata=_MONEY)
    currency = fields.Function(lambda v: v.invoice.currency)
    due_at = fields.Function(lambda v: _iso(v.invoice.due_at))
    paid_at = fields.Function(lambda v: _iso(v.invoice.paid_at))
    attempts = fields.Function(lambda v: v.invoice.attempts)
    next_attempt_at = fields.Function(lambda v: _iso(v.invoice.next_attempt_at))
    last_failure = fields.Function(lambda v: v.invoice.last_failure)


class InvoicePageSchema(ApiSchema):
    items = fields.List(fields.Nested(InvoiceSchema))
    next_cursor = fields.String(allow_none=True)


class PaymentMethodCreateSchema(ApiSchema):
    token = Text(required=True, min_length=1, max_length=200, metadata={
        "description": "The processor's card token, made in the browser with the public key"})
    email = EmailAddress(required=True)
    first_name = Text(load_default=None, max_length=80)
    last_name = Text(load_default=None, max_length=80)


class PaymentMethodSchema(ApiSchema):
    id = fields.String()
    brand = fields.String()
    last4 = fields.String()
    exp_month = fields.Integer()
    exp_year = fields.Integer()
    is_default = fields.Boolean()
    created_at = IsoDateTime()


class BillingPreferencesSchema(ApiSchema):
    auto_pay_enabled = fields.Boolean()
    auto_pay_method_id = fields.String(allow_none=True)


class AutoPaySchema(ApiSchema):
    enabled = fields.Boolean(required=True)
    method_id = UuidString(load_default=None)


class NequiPushCreateSchema(ApiSchema):
    phone_number = Text(required=True, min_length=1, max_length=20)
    amount = fields.Raw(required=True, metadata={"description": "A decimal string (or number) above zero"})


class NequiPushSchema(ApiSchema):
    id = fields.String()
    status = fields.String(metadata={"description": "PENDING | APPROVED | DECLINED | VOIDED | ERROR"})
    amount = fields.Function(lambda p: _text(p.amount_minor, p.currency), metadata=_MONEY)
    currency = fields.String()
    phone_number = fields.String()
    status_message = fields.String(allow_none=True)
    created_at = IsoDateTime()
    settled_at = IsoDateTime(allow_none=True)


class EventReceiptSchema(ApiSchema):
    received = fields.Boolean()
    matched = fields.Boolean(metadata={"description": "Whether the transaction is one of ours"})


def _iso(moment):
    return clock.iso(moment)


class NequiPushForOrganizationSchema(NequiPushCreateSchema):
    organization_id = UuidString(required=True)


class SuspensionSchema(ApiSchema):
    suspended = fields.Boolean()
    reason = fields.String(allow_none=True, metadata={"description": "payment_overdue, or the service team's words"})
    suspended_at = IsoDateTime(allow_none=True)
    pending_invoices = fields.List(fields.Nested(InvoiceSchema), metadata={
        "description": "Invoices to pay to lift the suspension"})


# The installation's administrators: the organizations it hosts, and the plans' catalog.

class HostedArgsSchema(PageArgsSchema):
    q = Text(load_default=None, max_length=100, metadata={"description": "Part of a name or slug"})
    state = fields.String(load_default="all", validate=validate.OneOf(hosted.STATES), metadata={
        "description": "owing: an open invoice whose payment failed; suspended: suspended for any reason"})


class HostedOrganizationSchema(ApiSchema):
    id = fields.String(attribute="organization.id")
    name = fields.String(attribute="organization.name")
    slug = fields.String(attribute="organization.slug")
    plan_slug = fields.String(attribute="plan.slug")
    billing_interval = fields.String(attribute="organization.billing_interval")
    billing_parent_id = fields.String(attribute="organization.billing_parent_id", allow_none=True)
    members = fields.Integer()
    balance = fields.Function(lambda h: _text(h.balance_minor, h.currency), metadata={
        **_MONEY, "description": "Of the wallet it pays from (its billing group's parent's, if in one)"})
    currency = fields.String()
    open_invoices = fields.Integer()
    owed = fields.Function(lambda h: _text(h.owed_minor, h.currency), metadata=_MONEY)
    oldest_due_at = IsoDateTime(allow_none=True)
    payment_failing = fields.Boolean(attribute="failing")
    suspended_at = IsoDateTime(attribute="organization.suspended_at", allow_none=True)
    suspension_reason = fields.String(attribute="organization.suspension_reason", allow_none=True)


class HostedPageSchema(ApiSchema):
    items = fields.List(fields.Nested(HostedOrganizationSchema))
    next_cursor = fields.String(allow_none=True)


class HostedPatchSchema(ApiSchema):
    plan_slug = fields.String(load_default=None, validate=validate.OneOf(sorted(plans.plans())))
    suspended = fields.Boolean(load_default=None)
    reason = Text(load_default=None, min_length=1, max_length=300, metadata={
        "description": "Why it is suspended (its people read it)"})


def _prices(prices) -> dict[str, str]:
    return {interval: str(price) for interval, price in prices.items()}


class CatalogPlanSchema(ApiSchema):
    slug = fields.String(attribute="plan.slug")
    name = fields.Dict(attribute="plan.name", metadata={"description": "Per language"})
    currency = fields.String(attribute="plan.currency")
    prices = fields.Function(lambda p: _prices(p.plan.prices), metadata={"description": "Per interval"})
    included = fields.Dict(attribute="plan.included", metadata={"description": "Units included, per add-on type"})
    capabilities = fields.Function(lambda p: sorted(p.plan.capabilities))
    max_phone_numbers = fields.Integer(attribute="plan.max_phone_numbers", allow_none=True)
    organizations = fields.Integer(metadata={"description": "Organizations on it now"})


class CatalogAddonSchema(ApiSchema):
    addon_type = fields.String()
    name = fields.Dict(metadata={"description": "Per language"})
    prices = fields.Function(lambda a: _prices(a.prices), metadata={"description": "One unit, per interval"})


class CatalogSchema(ApiSchema):
    plans = fields.List(fields.Nested(CatalogPlanSchema))
    addons = fields.List(fields.Nested(CatalogAddonSchema))
    storage_block_bytes = fields.Integer()
