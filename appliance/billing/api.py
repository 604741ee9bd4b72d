"""/organizations/{orgId}/billing/...: add-ons with their preview, the interval, the wallet and
payment reports; /billing/... the reference's paths that name the organization in the body;
/installation/payment-reports: the administrators' review (docs/billing.md)."""

from flask import Response, request
from flask.views import MethodView

from appliance.billing import (addons, hosted, invoice_pdf, invoices, nequi, payment_methods, payment_reports, periods,
                               processor_events, schemas, wallet)
from appliance.core.actor import OrgActor
from appliance.core.schema import PageArgsSchema
from appliance.http.api import Blueprint
from appliance.http.auth import current_actor, current_org_actor
from appliance.http.files import file_answer, serve_stored_file
from appliance.http.unit_of_work import db_session
from appliance.installation import service as installation_service
from appliance.memberships import service as memberships_service

blp = Blueprint("billing", __name__, url_prefix="/organizations", description="Billing: add-ons, interval, wallet")
by_body_blp = Blueprint("billing_by_body", __name__, url_prefix="/billing",
                        description="Billing routes that name the organization in the body")
review_blp = Blueprint("payment_reviews", __name__, url_prefix="/installation/payment-reports",
                       description="Payment reports to review (installation administrators)")
hosted_blp = Blueprint("hosted_organizations", __name__, url_prefix="/installation",
                       description="The organizations the installation hosts and the plans' catalog (its administrators)")


@blp.route("/<uuid:org_id>/billing/addons")
class Addons(MethodView):
    @blp.requires("billing:read", while_suspended=True)
    @blp.response(200, schemas.AddonsSchema)
    def get(self, org_id):
        """The add-ons' catalog, the units contracted and those the plan includes"""
        return addons.view(db_session(), actor=current_org_actor())

    @blp.requires("billing:write", while_suspended=True)
    @blp.arguments(schemas.AddonPatchSchema)
    @blp.response(200, schemas.AddonsSchema)
    def patch(self, body, org_id):
        """Set an add-on's units: an increase is debited from the wallet now (402
        insufficient_wallet_balance), a decrease waits for the period's end"""
        return addons.do_change(db_session(), actor=current_org_actor(), **body)


@blp.route("/<uuid:org_id>/billing/addons/preview")
class AddonPreview(MethodView):
    @blp.requires("billing:read", while_suspended=True)
    @blp.arguments(schemas.AddonChangeSchema)
    @blp.response(201, schemas.PreviewSchema)
    def post(self, body, org_id):
        """What a change costs now (the proration) and the wallet before and after"""
        return addons.preview(db_session(), actor=current_org_actor(), **body)


@blp.route("/<uuid:org_id>/billing/interval")
class Interval(MethodView):
    @blp.requires("billing:read", while_suspended=True)
    @blp.response(200, schemas.IntervalChangeSchema)
    def get(self, org_id):
        """The interval in effect and a change waiting for the next period"""
        return periods.interval_change(db_session(), current_org_actor().organization_id)

    @blp.requires("billing:write", while_suspended=True)
    @blp.arguments(schemas.BillingIntervalSchema)
    @blp.response(200, schemas.IntervalChangeSchema)
    def patch(self, body, org_id):
        """Bill monthly or yearly from the next period"""
        return periods.do_set_interval(db_session(), organization_id=current_org_actor().organization_id, **body)


@blp.route("/<uuid:org_id>/billing/wallet")
class Wallet(MethodView):
    @blp.requires("billing:read", while_suspended=True)
    @blp.response(200, schemas.WalletSchema)
    def get(self, org_id):
        """The paying wallet's balance and its newest movements"""
        return wallet.view(db_session(), organization_id=current_org_actor().organization_id)


@blp.route("/<uuid:org_id>/billing/payment-reports")
class PaymentReports(MethodView):
    @blp.requires("billing:read", while_suspended=True)
    @blp.arguments(PageArgsSchema, location="query")
    @blp.response(200, schemas.PaymentReportPageSchema)
    def get(self, query, org_id):
        """The transfers this organization reported, newest first"""
        return payment_reports.list_reports(db_session(), actor=current_org_actor(), **query)

    @blp.requires("billing:write", while_suspended=True)
    @blp.arguments(schemas.PaymentReportCreateSchema)
    @blp.response(201, schemas.PaymentReportSchema)
    def post(self, body, org_id):
        """Report a bank transfer for an administrator to approve (credited once) or reject"""
        return payment_reports.check_report(db_session(), actor=current_org_actor(), **body)


@blp.route("/<uuid:org_id>/billing/payment-reports/<uuid:report_id>")
class PaymentReportById(MethodView):
    @blp.requires("billing:read", while_suspended=True)
    @blp.response(200, schemas.PaymentReportSchema)
    def get(self, org_id, report_id):
        """One reported transfer and its outcome"""
        return payment_reports.access_report(db_session(), actor=current_org_actor(), report_id=str(report_id))


def _actor_of(organization_id: str) -> OrgActor:
    """The caller's standing in the organization the body names (billing:write); 403 elsewhere."""
    return memberships_service.access_organization(db_session(), actor=current_actor(),
                                                   organization_id=organization_id, permission="billing:write")


@by_body_blp.route("/interval")
class IntervalByBody(MethodView):
    @by_body_blp.arguments(schemas.BillingIntervalByBodySchema)
    @by_body_blp.response(200, schemas.IntervalChangeSchema)
    def patch(self, body):
        """Bill monthly or yearly from the next period (the organization in the body)"""
        actor = _actor_of(body.pop("organization_id"))
        return periods.do_set_interval(db_session(), organization_id=actor.organization_id, **body)


@by_body_blp.route("/payment-reports")
class PaymentReportsByBody(MethodView):
    @by_body_blp.arguments(schemas.PaymentReportForOrganizationSchema)
    @by_body_blp.response(201, schemas.PaymentReportSchema)
    def post(self, body):
        """Report a bank transfer (the organization in the body)"""
        actor = _actor_of(body.pop("organization_id"))
        return payment_reports.check_report(db_session(), actor=actor, **body)


def _admin_id() -> str:
    return installation_service.check_admin_actor(db_session(), current_actor())


@review_blp.route("")
class Reviews(MethodView):
    @review_blp.arguments(schemas.ReviewArgsSchema, location="query")
    @review_blp.response(200, schemas.PaymentReportPageSchema)
    def get(self, query):
        """Payment reports of every organization, by status (pending first, oldest first)"""
        _admin_id()
        return payment_reports.list_for_review(db_session(), **query)


@review_blp.route("/<uuid:report_id>/receipt")
class ReviewReceipt(MethodView):
    @review_blp.doc(responses=file_answer("The receipt, inline when a picture",
                                          ("image/jpeg", "image/png", "image/webp", "application/pdf")))
    def get(self, report_id):
        """A report's receipt: the file attached with it, or the uploaded media it named (404
        receipt_not_found without one)"""
        _admin_id()
        found = payment_reports.receipt_of(db_session(), report_id=str(report_id))
        return serve_stored_file(found.path, claimed_type=found.mime_type, filename=found.filename)


@review_blp.route("/<uuid:report_id>/approve")
class Approve(MethodView):
    @review_blp.response(201, schemas.PaymentReportSchema)
    def post(self, report_id):
        """Approve: the paying wallet is credited once and the reporter told"""
        return payment_reports.do_approve(db_session(), admin_id=_admin_id(), report_id=str(report_id))


@review_blp.route("/<uuid:report_id>/reject")
class Reject(MethodView):
    @review_blp.arguments(schemas.RejectSchema)
    @review_blp.response(201, schemas.PaymentReportSchema)
    def post(self, body, report_id):
        """Reject with a reason: nothing credited, the reporter told"""
        return payment_reports.do_reject(db_session(), admin_id=_admin_id(), report_id=str(report_id), **body)


@hosted_blp.route("/organizations")
class HostedOrganizations(MethodView):
    @hosted_blp.arguments(schemas.HostedArgsSchema, location="query")
    @hosted_blp.response(200, schemas.HostedPageSchema)
    def get(self, query):
        """Every organization by name, with its plan, wallet, what it owes and its suspension"""
        _admin_id()
        return hosted.list_hosted(db_session(), **query)


# `organization_id`, not the `org_id` of an organization's own routes: these act on any organization
# from outside it, as the installation's administrator.
@hosted_blp.route("/organizations/<uuid:organization_id>")
class HostedOrganizationById(MethodView):
    @hosted_blp.response(200, schemas.HostedOrganizationSchema)
    def get(self, organization_id):
        """One organization's billing state"""
        _admin_id()
        return hosted.access_hosted(db_session(), str(organization_id))

    @hosted_blp.arguments(schemas.HostedPatchSchema)
    @hosted_blp.response(200, schemas.HostedOrganizationSchema)
    def patch(self, body, organization_id):
        """Change its plan, or suspend it or lift a suspension an administrator made (409
        suspended_for_payment: paying lifts that one)"""
        _admin_id()
        return hosted.do_update(db_session(), organization_id=str(organization_id), **body)


@hosted_blp.route("/plans")
class Plans(MethodView):
    @hosted_blp.response(200, schemas.CatalogSchema)
    def get(self):
        """The plans with their prices and included units, how many organizations are on each, and the add-ons"""
        _admin_id()
        return hosted.catalog(db_session())


@blp.route("/<uuid:org_id>/billing/invoices")
class Invoices(MethodView):
    @blp.requires("billing:read", while_suspended=True)
    @blp.arguments(PageArgsSchema, location="query")
    @blp.response(200, schemas.InvoicePageSchema)
    def get(self, query, org_id):
        """The organization's invoices, newest period first"""
        return invoices.list_invoices(db_session(), actor=current_org_actor(), **query)


@blp.route("/<uuid:org_id>/billing/invoices/<uuid:invoice_id>")
class InvoiceById(MethodView):
    @blp.requires("billing:read", while_suspended=True)
    @blp.response(200, schemas.InvoiceSchema)
    def get(self, org_id, invoice_id):
        """One invoice with its lines, attempts and outcome"""
        return invoices.access_invoice(db_session(), actor=current_org_actor(), invoice_id=str(invoice_id))


@blp.route("/<uuid:org_id>/billing/invoices/<uuid:invoice_id>/pdf")
class InvoicePdf(MethodView):
    @blp.requires("billing:read", while_suspended=True)
    @blp.doc(responses={"200": {"description": "The invoice as a PDF", "content": {"application/pdf": {
        "schema": {"type": "string", "format": "binary"}}}}})
    def get(self, org_id, invoice_id):
        """The invoice as a PDF (in the caller's language: ?lang=es|en)"""
        number, pdf = invoice_pdf.pdf_of(db_session(), actor=current_org_actor(), invoice_id=str(invoice_id),
                                      language=request.args.get("lang", "en"))
        return Response(pdf, mimetype="application/pdf",
                        headers={"Content-Disposition": f'attachment; filename="invoice-{number}.pdf"'})


@blp.route("/<uuid:org_id>/billing/payment-methods")
class PaymentMethods(MethodView):
    @blp.requires("billing:read", while_suspended=True)
    @blp.response(200, schemas.PaymentMethodSchema(many=True))
    def get(self, org_id):
        """The organization's cards (brand, last four digits, expiry)"""
        return payment_methods.list_methods(db_session(), actor=current_org_actor())

    @blp.requires("billing:write", while_suspended=True)
    @blp.arguments(schemas.PaymentMethodCreateSchema)
    @blp.response(201, schemas.PaymentMethodSchema)
    def post(self, body, org_id):
        """Keep a card from the token the browser made (the first one is the default)"""
        return payment_methods.check_add(db_session(), actor=current_org_actor(), **body)


@blp.route("/<uuid:org_id>/billing/payment-methods/<uuid:method_id>")
class PaymentMethodById(MethodView):
    @blp.requires("billing:write", while_suspended=True)
    @blp.response(200, schemas.PaymentMethodSchema)
    def delete(self, org_id, method_id):
        """Remove a card at the processor and here"""
        return payment_methods.check_remove(db_session(), actor=current_org_actor(), method_id=str(method_id))


@blp.route("/<uuid:org_id>/billing/payment-methods/<uuid:method_id>/default")
class DefaultPaymentMethod(MethodView):
    @blp.requires("billing:write", while_suspended=True)
    @blp.response(201, schemas.PaymentMethodSchema)
    def post(self, org_id, method_id):
        """Make this card the default (the others stop being it)"""
        return payment_methods.do_make_default(db_session(), actor=current_org_actor(), method_id=str(method_id))


@blp.route("/<uuid:org_id>/billing/preferences")
class Preferences(MethodView):
    @blp.requires("billing:read", while_suspended=True)
    @blp.response(200, schemas.BillingPreferencesSchema)
    def get(self, org_id):
        """Whether auto-pay is on, and with which card (none: the default)"""
        return payment_methods.preferences(db_session(), actor=current_org_actor())


@blp.route("/<uuid:org_id>/billing/auto-pay")
class AutoPay(MethodView):
    @blp.requires("billing:write", while_suspended=True)
    @blp.arguments(schemas.AutoPaySchema)
    @blp.response(200, schemas.BillingPreferencesSchema)
    def patch(self, body, org_id):
        """Turn auto-pay on or off, with a card of this organization (none: the default)"""
        return payment_methods.do_set_auto_pay(db_session(), actor=current_org_actor(), **body)


@blp.route("/<uuid:org_id>/billing/nequi/push")
class NequiPush(MethodView):
    @blp.requires("billing:write", while_suspended=True)
    @blp.arguments(schemas.NequiPushCreateSchema)
    @blp.response(201, schemas.NequiPushSchema)
    def post(self, body, org_id):
        """Ask a Nequi account for a payment: the wallet is credited when its owner accepts it"""
        return nequi.check_push(db_session(), actor=current_org_actor(), **body)


@blp.route("/<uuid:org_id>/billing/nequi/push/<uuid:payment_id>")
class NequiPushById(MethodView):
    @blp.requires("billing:read", while_suspended=True)
    @blp.response(200, schemas.NequiPushSchema)
    def get(self, org_id, payment_id):
        """Follow a Nequi push: PENDING until its owner accepts or declines it"""
        return nequi.access_push(db_session(), actor=current_org_actor(), payment_id=str(payment_id))


@blp.route("/<uuid:org_id>/suspension")
class Suspension(MethodView):
    @blp.requires("organizations:read", while_suspended=True)
    @blp.response(200, schemas.SuspensionSchema)
    def get(self, org_id):
        """Whether the organization is suspended, why, and the invoices that lift it once paid"""
        return invoices.suspension(db_session(), actor=current_org_actor())


@by_body_blp.route("/nequi/push")
class NequiPushByBody(MethodView):
    @by_body_blp.arguments(schemas.NequiPushForOrganizationSchema)
    @by_body_blp.response(201, schemas.NequiPushSchema)
    def post(self, body):
        """Ask a Nequi account for a payment (the organization in the body)"""
        actor = _actor_of(body.pop("organization_id"))
        return nequi.check_push(db_session(), actor=actor, **body)


@by_body_blp.route("/wompi/events")
class WompiEvents(MethodView):
    @by_body_blp.public
    @by_body_blp.doc(requestBody={"required": True, "content": {"application/json": {"schema": {
        "type": "object", "description": "Wompi's event: {event, data: {transaction}, signature: {properties, "
                                         "checksum}, timestamp}"}}}},
        responses={"401": {"description": "The checksum does not match the events secret: nothing was done"}})
    @by_body_blp.response(200, schemas.EventReceiptSchema)
    def post(self):
        """The processor's event: checksum checked on the event as sent, the payment settled once"""
        return processor_events.receive(db_session(), request.get_data(cache=True))
