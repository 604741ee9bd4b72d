"""/organizations/{orgId}/orders/{orderId}/e-invoice (a paid order's electronic invoice, its PDF)
and /organizations/{orgId}/e-invoicing/account (the provider account, integrations:write)."""

from flask.views import MethodView

from appliance.einvoicing import schemas, service
from appliance.http.api import Blueprint
from appliance.http.auth import current_org_actor
from appliance.http.files import file_answer, serve_stored_file
from appliance.http.unit_of_work import db_session
from appliance.core.errors import NotFound

blp = Blueprint("einvoicing", __name__, url_prefix="/organizations/<uuid:org_id>",
                description="Electronic invoices of paid orders (DIAN, through Factus)")


@blp.route("/orders/<uuid:order_id>/e-invoice")
class OrderEInvoice(MethodView):
    @blp.requires("orders:read")
    @blp.response(200, schemas.EInvoiceSchema)
    def get(self, org_id, order_id):
        """The order's electronic invoice and its state"""
        return service.access_invoice(db_session(), actor=current_org_actor(), order_id=str(order_id))

    @blp.requires("orders:write")
    @blp.arguments(schemas.EInvoiceCreateSchema)
    @blp.response(201, schemas.EInvoiceSchema)
    def post(self, body, org_id, order_id):
        """Invoice a paid order (409 order_not_paid); the same one again while it is pending or
        issued; a rejected one again with corrected data"""
        return service.check_invoice(actor=current_org_actor(), order_id=str(order_id), **body)


@blp.route("/orders/<uuid:order_id>/e-invoice/pdf")
class OrderEInvoicePdf(MethodView):
    @blp.requires("orders:read")
    @blp.doc(responses=file_answer("The invoice as the provider made it", ("application/pdf",)))
    def get(self, org_id, order_id):
        """The invoice's PDF (404 einvoice_pdf_not_found until it is issued)"""
        invoice = service.access_invoice(db_session(), actor=current_org_actor(), order_id=str(order_id))
        if not invoice.has_pdf or not service.pdf_path(invoice).exists():
            raise NotFound("This invoice has no PDF yet.", code="einvoice_pdf_not_found")
        return serve_stored_file(service.pdf_path(invoice), claimed_type="application/pdf",
                                 filename=f"{invoice.number}.pdf")


@blp.route("/e-invoicing/account")
class Account(MethodView):
    @blp.requires("integrations:read")
    @blp.response(200, schemas.InvoicingAccountSchema)
    def get(self, org_id):
        """The provider account (never its secrets)"""
        return service.get_account(db_session(), actor=current_org_actor())

    @blp.requires("integrations:write")
    @blp.arguments(schemas.InvoicingAccountPutSchema)
    @blp.response(200, schemas.InvoicingAccountSchema)
    def put(self, body, org_id):
        """Set the provider account (the secrets may be left out to keep the stored ones)"""
        return service.do_put_account(db_session(), actor=current_org_actor(), **body)
