from marshmallow import fields, validate

from appliance.core.schema import ApiSchema, EmailAddress, IsoDateTime, Secret, Text
from appliance.einvoicing.service import DOCUMENT_TYPES


class CustomerSchema(ApiSchema):
    document_type = fields.String(required=True, validate=validate.OneOf(DOCUMENT_TYPES), metadata={
        "description": "CC (cédula), NIT, CE (cédula de extranjería), PASSPORT, TI (tarjeta de identidad)"})
    identification = fields.String(required=True, validate=validate.Regexp(r"^\d{5,15}$"), metadata={
        "description": "5 to 15 digits (a NIT without its check digit)"})
    name = Text(required=True, min_length=1, max_length=200)
    email = EmailAddress(load_default=None)


class EInvoiceCreateSchema(ApiSchema):
    customer = fields.Nested(CustomerSchema, load_default=None, metadata={
        "description": "Who buys, as DIAN must know them; left out: the final consumer (222222222222) with the "
                       "contact's name"})


class EInvoiceSchema(ApiSchema):
    id = fields.String()
    order_id = fields.String()
    status = fields.String(metadata={"description": "PENDING (tried again while the provider does not answer) | "
                                                    "ISSUED | REJECTED (reason says why)"})
    number = fields.String(allow_none=True)
    cufe = fields.String(allow_none=True)
    qr_url = fields.String(allow_none=True)
    pdf_url = fields.Function(lambda i: f"/organizations/{i.organization_id}/orders/{i.order_id}/e-invoice/pdf"
                              if i.has_pdf else None, allow_none=True)
    reason = fields.String(allow_none=True)
    customer = fields.Dict()
    attempts = fields.Integer()
    next_attempt_at = IsoDateTime(allow_none=True)
    issued_at = IsoDateTime(allow_none=True)
    created_at = IsoDateTime()


class InvoicingAccountPutSchema(ApiSchema):
    provider = fields.String(load_default="FACTUS", validate=validate.OneOf(("FACTUS",)))
    url = fields.Url(required=True, schemes={"https", "http"}, metadata={
        "description": "Factus's API: https://api.factus.com.co (or https://api-sandbox.factus.com.co to test)"})
    client_id = Text(required=True, min_length=1, max_length=200)
    client_secret = Secret(load_default=None, max_length=500, metadata={"description": "Write only"})
    username = Text(required=True, min_length=1, max_length=254)
    password = Secret(load_default=None, max_length=500, metadata={"description": "Write only"})
    numbering_range_id = fields.Integer(load_default=None, validate=validate.Range(min=1))
    tax_rate = fields.String(load_default="19.00", validate=validate.OneOf(("0.00", "5.00", "19.00")), metadata={
        "description": "IVA included in the products' prices"})


class InvoicingAccountSchema(ApiSchema):
    configured = fields.Boolean()
    provider = fields.String(allow_none=True)
    url = fields.String(allow_none=True)
    client_id = fields.String(allow_none=True)
    username = fields.String(allow_none=True)
    numbering_range_id = fields.Integer(allow_none=True)
    tax_rate = fields.String(allow_none=True)
    updated_at = IsoDateTime(allow_none=True)
