from marshmallow import fields, validate

from appliance.billing.money import text as _money
from appliance.catalog.models import KINDS
from appliance.core.schema import ApiSchema, IsoDateTime, PageArgsSchema, Text

_PRICE = {"description": "A decimal string in the currency's unit, e.g. \"45000.00\""}


class ProductCreateSchema(ApiSchema):
    retailer_id = Text(required=True, min_length=1, max_length=100, metadata={
        "description": "The product's id in Meta's catalog and in customers' carts; unique in the organization"})
    name = Text(required=True, min_length=1, max_length=150)
    description = Text(load_default="", max_length=5000, multiline=True)
    price = fields.Raw(required=True, metadata=_PRICE)
    currency = fields.String(required=True, validate=validate.Length(equal=3))
    image_url = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=1000))
    url = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=1000))
    available = fields.Boolean(load_default=True)
    kind = fields.String(load_default="GOODS", validate=validate.OneOf(KINDS), metadata={
        "description": "GOODS, or LICENSE: keys delivered over WhatsApp when its order is paid"})
    low_stock_at = fields.Integer(load_default=5, validate=validate.Range(min=0, max=100000))


class ProductPatchSchema(ApiSchema):
    retailer_id = Text(min_length=1, max_length=100)
    name = Text(min_length=1, max_length=150)
    description = Text(max_length=5000, multiline=True)
    price = fields.Raw(metadata=_PRICE)
    currency = fields.String(validate=validate.Length(equal=3))
    image_url = fields.String(allow_none=True, validate=validate.Length(max=1000))
    url = fields.String(allow_none=True, validate=validate.Length(max=1000))
    available = fields.Boolean()
    kind = fields.String(validate=validate.OneOf(KINDS))
    low_stock_at = fields.Integer(validate=validate.Range(min=0, max=100000))


class ProductSchema(ApiSchema):
    id = fields.String()
    retailer_id = fields.String()
    name = fields.String()
    description = fields.String()
    price = fields.Function(lambda p: _money(p.price_minor, p.currency), metadata=_PRICE)
    currency = fields.String()
    image_url = fields.String(allow_none=True)
    url = fields.String(allow_none=True)
    available = fields.Boolean()
    kind = fields.String()
    low_stock_at = fields.Integer()
    synced_at = IsoDateTime(allow_none=True, metadata={"description": "When Meta's catalog last took it"})
    sync_error = fields.String(allow_none=True, metadata={"description": "Why Meta refused it, last time"})
    created_at = IsoDateTime()
    updated_at = IsoDateTime()


class ProductPageSchema(ApiSchema):
    items = fields.List(fields.Nested(ProductSchema))
    next_cursor = fields.String(allow_none=True)


class ProductArgsSchema(PageArgsSchema):
    kind = fields.String(load_default=None, validate=validate.OneOf(KINDS))
    q = Text(load_default=None, max_length=100, metadata={"description": "Part of the name"})


class LicenseKeysAddSchema(ApiSchema):
    keys = fields.List(fields.String(validate=validate.Length(min=1, max=500)), required=True,
                       validate=validate.Length(min=1, max=1000), metadata={"description": "Stored sealed; each once"})


class StockSchema(ApiSchema):
    available = fields.Integer(metadata={"description": "Keys not given out yet"})
    delivered = fields.Integer(metadata={"description": "Keys given to paid orders (not counting replaced ones)"})
    low_stock_at = fields.Integer()
    low = fields.Boolean(metadata={"description": "available <= lowStockAt"})


class KeysAddedSchema(ApiSchema):
    added = fields.Integer()
    duplicates = fields.Integer(metadata={"description": "Already in the pool, or repeated: not added"})
    stock = fields.Nested(StockSchema)


class SyncSchema(ApiSchema):
    catalog_id = fields.String(metadata={"description": "The business account's Meta catalog"})
    pushed = fields.Integer()
    refused = fields.Dict(metadata={"description": "retailerId -> Meta's reason"})


class SyncArgsSchema(ApiSchema):
    waba_pk = fields.String(load_default=None, data_key="businessAccountId", metadata={
        "description": "Which business account's catalog (default: the first connected)"})
